import { ApiProperty } from '@nestjs/swagger';
import { BooleanField, DateField, IntegerField, NestedField, StringField } from '../validation/fields';
import { MAX_RENT, MAX_USER_ID } from './application.dto';

/** Months a desired lease may run: up to ten years, no landlord offers more. */
export const MAX_LEASE_MONTHS = 120;

const UNCHANGED = 'Left out: unchanged. null: unset.';
const INTEGER_TEXT = 'A JSON integer, or a string of decimal digits.';

/**
 * `application` inside PATCH /api/v2/applications/:id: the fields a landlord's software keeps up
 * to date after the application was made, each checked as on create where create takes it; a
 * field left out keeps its value. The property and the applicants are not changed here.
 */
export class ApplicationChanges {
  @IntegerField({ nullable: true, min: 1, max: MAX_USER_ID })
  @ApiProperty({ description: `User the application is assigned to. ${INTEGER_TEXT} ${UNCHANGED}`, example: 42 })
  assigned_user_id?: number | null;

  @IntegerField({ nullable: true, min: 1 })
  @ApiProperty({
    description: `One of the floor plans of the application’s property (422 otherwise). ${INTEGER_TEXT} ${UNCHANGED}`,
    example: 1,
  })
  floor_plan_id?: number | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `The unit applied for, trimmed. ${UNCHANGED}`, example: '4B' })
  desired_unit_number?: string | null;

  @StringField({ nullable: true, trim: true, max: 2000 })
  @ApiProperty({
    description: `The desired unit or property in words, trimmed. ${UNCHANGED}`,
    example: 'Top floor, facing the park',
  })
  desired_unit_description?: string | null;

  @IntegerField({ nullable: true, min: 1, max: MAX_LEASE_MONTHS })
  @ApiProperty({ description: `Desired lease length in months, 1 to ${MAX_LEASE_MONTHS}. ${UNCHANGED}`, example: 12 })
  desired_lease_length?: number | null;

  @DateField({ nullable: true })
  @ApiProperty({
    description: `Desired (not actual) move-in date, MM/DD/YYYY or YYYY-MM-DD. ${UNCHANGED}`,
    example: '2027-01-15',
  })
  desired_move_in?: string | null;

  @IntegerField({ nullable: true, min: 0, max: MAX_RENT })
  @ApiProperty({ description: `Rent passed on for income-to-rent calculations. ${INTEGER_TEXT} ${UNCHANGED}`, example: 1900 })
  user_specified_rent?: number | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `Who showed the applicant around, trimmed. ${UNCHANGED}`, example: 'Sam Lee' })
  showing_agent?: string | null;

  @IntegerField({ nullable: true, min: 1, max: MAX_USER_ID })
  @ApiProperty({ description: `The showing agent’s user id. ${INTEGER_TEXT} ${UNCHANGED}`, example: 7 })
  showing_agent_id?: number | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `How the applicant heard of the property, trimmed. ${UNCHANGED}`, example: 'Newspaper' })
  referral?: string | null;

  @BooleanField()
  @ApiProperty({
    description:
      'true archives the application (`archived` then holds when; archiving an archived one keeps that time), ' +
      'false restores it (`archived` null again). Left out: unchanged.',
    example: true,
  })
  archived?: boolean;
}

export class UpdateApplicationRequest {
  @NestedField(() => ApplicationChanges, { required: true })
  application: ApplicationChanges;
}
