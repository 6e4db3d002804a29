import { ApiProperty } from '@nestjs/swagger';
import { EmailField, JsonObjectField, NestedField, PhoneField, StringField } from '../validation/fields';

const UNCHANGED = 'Left out, it keeps its value.';

/**
 * `applicant` in PATCH /api/v2/applications/:aid/applicants/:id: corrections of what an applicant
 * gave, each under the rule it has on create. `type` is not among them (an applicant does not
 * become primary by an edit), nor are the date of birth and SSN, which the applicant alone gives.
 */
export class ApplicantChanges {
  @StringField({ trim: true, min: 1, max: 100 })
  @ApiProperty({ description: `Trimmed. ${UNCHANGED}`, example: 'Ada' })
  first_name?: string;

  @StringField({ trim: true, min: 1, max: 100 })
  @ApiProperty({ description: `Trimmed. ${UNCHANGED}`, example: 'King' })
  last_name?: string;

  @EmailField({ max: 254 })
  @ApiProperty({ description: `E-mail address. ${UNCHANGED}`, example: 'ada.king@example.com' })
  email?: string;

  @PhoneField({ nullable: true })
  @ApiProperty({
    description: `10 to 15 digits once spaces, dashes, parentheses, dots and plus signs are taken out; null clears it. ${UNCHANGED}`,
    example: '5550109999',
  })
  phone?: string | null;

  @StringField({ nullable: true, max: 255 })
  @ApiProperty({ description: `The integrator’s own identifier; null clears it. ${UNCHANGED}`, example: 'crm-78' })
  reference_id?: string | null;

  @JsonObjectField({ nullable: true, maxBytes: 16 * 1024, maxDepth: 10, maxEntries: 1000 })
  @ApiProperty({
    description: `Replaces the whole custom_data object, under the rules of create; null clears it. ${UNCHANGED}`,
    example: { source: 'crm', stage: 'review' },
  })
  custom_data?: Record<string, unknown> | null;
}

export class UpdateApplicantRequest {
  @NestedField(() => ApplicantChanges, { required: true })
  applicant: ApplicantChanges;
}
