import { EmergencyContactInput } from '@app/contracts';
import { FieldSpec, SectionModule, validated } from './section';

/** Someone to call if the applicant cannot be reached. */
export class EmergencyContactSection extends SectionModule<EmergencyContactInput> {
  readonly kind = 'emergency_contact';
  readonly title = 'Emergency contact';
  readonly intro = 'Someone the property manager may call in an emergency, who does not live with you.';
  protected override readonly fields: FieldSpec[] = [
    { name: 'name', label: 'Full name', required: true },
    { name: 'relationship', label: 'Relationship to you' },
    {
      name: 'phone',
      label: 'Phone number',
      required: true,
      type: 'tel',
      hint: '10 to 15 digits; spaces, dashes and brackets are fine.',
    },
    { name: 'email', label: 'E-mail address', type: 'email' },
  ];

  protected validate(plain: Record<string, unknown>): EmergencyContactInput {
    return validated(EmergencyContactInput, plain);
  }
}
