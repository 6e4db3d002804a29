import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from '../errors';
import {
  DateField,
  EmailField,
  IntegerField,
  JsonObjectField,
  NestedField,
  PhoneField,
  SsnField,
  StringField,
  UrlField,
} from '../validation/fields';
import { APPLICATION_STATUSES, ApplicationStatus } from './decision-status';

/** Upper bounds of the integer inputs, so that no absurd number is stored or passed on. */
export const MAX_RENT = 1_000_000;
export const MAX_USER_ID = 2_147_483_647;
/**
 * Applicants an application may have, the primary one included: applicants live inside their
 * application's document, which must stay well below the 16 MB a document may hold (each
 * applicant can carry 16 KiB of custom_data), and no household applies with more.
 */
export const MAX_APPLICANTS = 20;

const DATE_FORMATS = 'A date written MM/DD/YYYY or YYYY-MM-DD; an impossible calendar date is refused.';
const INTEGER_TEXT = 'A JSON integer, or a string of decimal digits.';

/** `application.applicant`: the first, primary applicant. */
export class ApplicantInput {
  @StringField({ required: true, trim: true, min: 1, max: 100 })
  @ApiProperty({ description: 'Trimmed.', example: 'Ada' })
  first_name: string;

  @StringField({ required: true, trim: true, min: 1, max: 100 })
  @ApiProperty({ description: 'Trimmed.', example: 'Lovelace' })
  last_name: string;

  @EmailField({ required: true, max: 254 })
  @ApiProperty({ description: 'E-mail address.', example: 'ada@example.com' })
  email: string;

  @DateField({ nullable: true, past: true })
  @ApiProperty({ description: `Date of birth, in the past. ${DATE_FORMATS}`, example: '12/10/1985' })
  dob?: string | null;

  /** Stored as nine digits; never returned and never logged. */
  @SsnField({ nullable: true })
  @ApiProperty({
    description: 'US social security number: 9 digits, dashes allowed. Stored as the digits, never returned.',
    example: '123-45-6789',
  })
  id_number?: string | null;

  @PhoneField({ nullable: true })
  @ApiProperty({
    description: 'Primary phone number: 10 to 15 digits once spaces, dashes, parentheses, dots and plus signs are taken out.',
    example: '5550101234',
  })
  phone?: string | null;

  @JsonObjectField({ nullable: true, maxBytes: 16 * 1024, maxDepth: 10, maxEntries: 1000 })
  @ApiProperty({
    description:
      'Any JSON object: at most 16 KiB as JSON, 10 levels deep, 1,000 entries in any one object or array, no key starting with $ or containing a dot.',
    example: { source: 'web' },
  })
  custom_data?: Record<string, unknown> | null;

  @StringField({ nullable: true, max: 255 })
  @ApiProperty({ description: 'The integrator’s own identifier for the applicant.', example: 'crm-77' })
  reference_id?: string | null;

  @UrlField({ nullable: true, max: 2000, normalize: true })
  @ApiProperty({
    description:
      'Absolute http(s) URL the applicant is sent to instead of the normal confirmation page; stored as the WHATWG URL parser writes it (non-ASCII characters percent-encoded, the host in lower case).',
    example: 'https://landlord.example/thanks',
  })
  redirect_url?: string | null;
}

/** `application` inside POST /api/v2/applications. */
export class ApplicationInput {
  // Any problem with property_id answers with the documented message, as an unknown id does.
  @IntegerField({ required: true, min: 1, code: ErrorCode.PROPERTY_ID_INVALID })
  @ApiProperty({
    description:
      `A live property of the caller's. ${INTEGER_TEXT} When it is missing, invalid, unknown, deleted ` +
      'or another client’s, the answer is 422 "property_id is invalid or cannot be found".',
    example: 1,
  })
  property_id: number;

  /** A monthly rent in whole currency units. */
  @IntegerField({ nullable: true, min: 0, max: MAX_RENT })
  @ApiProperty({
    description: `Rent the caller supplies, passed on for income-to-rent calculations. ${INTEGER_TEXT}`,
    example: 1850,
  })
  user_specified_rent?: number | null;

  @DateField({ nullable: true })
  @ApiProperty({ description: `Desired (not actual) move-in date. ${DATE_FORMATS}`, example: '12/01/2026' })
  desired_move_in?: string | null;

  @IntegerField({ nullable: true, min: 1, max: MAX_USER_ID })
  @ApiProperty({ description: `User the application is assigned to. ${INTEGER_TEXT}`, example: 42 })
  assigned_user_id?: number | null;

  @NestedField(() => ApplicantInput, { required: true })
  @ApiProperty({ description: 'The first applicant, who becomes the primary one.' })
  applicant: ApplicantInput;
}

export class CreateApplicationRequest {
  @NestedField(() => ApplicationInput, { required: true })
  application: ApplicationInput;
}

export const APPLICANT_TYPES = ['primary', 'co_applicant', 'guarantor'] as const;
export type ApplicantType = (typeof APPLICANT_TYPES)[number];

export class ApplicantSummary {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({ enum: APPLICANT_TYPES, description: 'The first applicant is the primary one.', example: 'primary' })
  type: ApplicantType;

  @ApiProperty({ description: 'First name followed by last name.', example: 'Ada Lovelace' })
  name: string;

  @ApiProperty({
    format: 'uri',
    description: '<PUBLIC_BASE_URL>/api/v2/applications/<application id>/applicants/<applicant id>',
    example: 'http://localhost:3000/api/v2/applications/1/applicants/1',
  })
  api_url: string;

  @ApiProperty({
    type: 'number',
    nullable: true,
    required: true,
    description:
      'The monthly income the applicant stated on the form: its employment’s monthly incomes and its other incomes’ ' +
      'monthly amounts summed, in dollars; null until it saved that section.',
    example: 5600,
  })
  /** Always given by this release; optional in the type, as a service of the previous release answers without it. */
  monthly_income?: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    required: true,
    description:
      'monthly_income divided by the application’s rent, to two decimals; null when either is unknown or the rent is 0.',
    example: 3.03,
  })
  income_to_rent?: number | null;
}

export class ApplicationProperty {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({ example: 'Maple Court' })
  name: string;
}

const NULL_AFTER_CREATION = 'Null after creation; set by PATCH (or the online form).';
const TIMESTAMP = 'ISO 8601, seconds precision, numeric offset.';

export class ApplicationRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Allocated per resource type, increasing, never reused.', example: 1 })
  id: number;

  @ApiProperty({ type: 'integer', example: 1 })
  property_id: number;

  @ApiProperty({ type: 'integer', description: 'The client account of the API key that created it.', example: 1 })
  client_id: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 42 })
  assigned_user_id: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: NULL_AFTER_CREATION, example: null })
  floor_plan_id: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: NULL_AFTER_CREATION, example: null })
  desired_unit_description: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: `In months. ${NULL_AFTER_CREATION}`, example: null })
  desired_lease_length: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: NULL_AFTER_CREATION, example: null })
  desired_unit_number: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 1850 })
  user_specified_rent: number | null;

  @ApiProperty({ type: 'string', format: 'date', nullable: true, description: 'YYYY-MM-DD.', example: '2026-12-01' })
  desired_move_in: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: NULL_AFTER_CREATION, example: null })
  showing_agent: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: NULL_AFTER_CREATION, example: null })
  showing_agent_id: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: NULL_AFTER_CREATION, example: null })
  referral: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: `When the application was archived (${TIMESTAMP}); null while it is not, as after creation.`,
    example: null,
  })
  archived: string | null;

  @ApiProperty({
    enum: APPLICATION_STATUSES,
    description:
      'draft until the primary applicant completes the online form, then submitted; once a decision is recorded ' +
      '(POST /api/v2/applications/{id}/decision, or the applicant withdraws), the decision’s status.',
    example: 'draft',
    required: true,
  })
  /** Always given by this release; optional in the type, as a service of the previous release answers without it. */
  status?: ApplicationStatus;

  @ApiProperty({
    type: 'number',
    nullable: true,
    required: true,
    description:
      'The monthly rent the application is judged against: its floor plan’s rent when one is chosen and has a rent, ' +
      'else user_specified_rent; null when neither is known.',
    example: 1850,
  })
  rent?: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    required: true,
    description:
      'The monthly incomes of the primary applicant and the co-applicants summed (not the guarantors’); null while ' +
      'one of them has not stated an income.',
    example: 5600,
  })
  household_monthly_income?: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    required: true,
    description: 'household_monthly_income divided by rent, to two decimals; null when either is unknown or the rent is 0.',
    example: 3.03,
  })
  income_to_rent?: number | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    required: true,
    description:
      `When its applicants’ personal data was erased (${TIMESTAMP}): at an applicant’s request (DELETE ` +
      '/api/v2/applications/{id}/personal_data), or once a decided or withdrawn application was kept as long as the ' +
      'client’s retention_settings say. Its decisions and dates are kept; null while nothing was erased.',
    example: null,
  })
  /** Always given by this release; optional in the type, as a service of the previous release answers without it. */
  personal_data_erased_at?: string | null;

  @ApiProperty({ format: 'date-time', description: TIMESTAMP, example: '2026-11-22T14:03:09+00:00' })
  created_at: string;

  @ApiProperty({ format: 'date-time', description: TIMESTAMP, example: '2026-11-22T14:03:09+00:00' })
  updated_at: string;

  @ApiProperty({ description: 'The property applied to, with its name when the application was made.' })
  property: ApplicationProperty;

  @ApiProperty({
    type: [ApplicantSummary],
    maxItems: MAX_APPLICANTS,
    description: 'The applicants; the first is the primary one.',
  })
  applicants: ApplicantSummary[];
}

export class ApplicationResponse {
  @ApiProperty()
  application: ApplicationRepresentation;
}
