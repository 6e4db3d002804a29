import { IdentitySectionInput, US_STATE_CODES } from '@app/contracts';
import { FieldSpec, SectionModule, validated } from './section';

/** Who the applicant is: the numbers a screening needs. The SSN and license number are never shown again. */
export class IdentitySection extends SectionModule<IdentitySectionInput> {
  readonly kind = 'identity';
  readonly title = 'Your identity';
  readonly intro = 'The property manager needs these to check your application.';
  protected override readonly fields: FieldSpec[] = [
    { name: 'middle_name', label: 'Middle name', autocomplete: 'additional-name' },
    {
      name: 'dob',
      label: 'Date of birth',
      required: true,
      type: 'date',
      autocomplete: 'bday',
      hint: 'For example April 12, 1990. Type it again whenever you change this step.',
      sealed: true,
    },
    {
      name: 'id_number',
      label: 'Social security number',
      required: true,
      type: 'password',
      autocomplete: 'off',
      inputmode: 'numeric',
      hint: '9 digits, for example 123-45-6789. Type it again whenever you change this step.',
      secret: true,
      sealed: true,
    },
    { name: 'drivers_license_state', label: 'Driver’s license state', type: 'select', options: US_STATE_CODES },
    {
      name: 'drivers_license_number',
      label: 'Driver’s license number',
      autocomplete: 'off',
      hint: 'Stored encrypted, like your SSN, and never shown again.',
      secret: true,
      sealed: true,
    },
  ];

  protected validate(plain: Record<string, unknown>): IdentitySectionInput {
    return validated(IdentitySectionInput, plain);
  }
}
