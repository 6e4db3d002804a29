import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { BooleanField, EnumField, NestedField } from '../validation/fields';
import { ConsentRecord } from './consent.dto';
import { APPLICANT_TYPES, ApplicantInput, ApplicantType, ApplicationRepresentation } from './application.dto';
import {
  ApplicantIdentity,
  EmergencyContactInput,
  EmploymentEntry,
  HouseholdSectionInput,
  MAX_SECTION_ENTRIES,
  OtherIncomeEntry,
  ResidenceEntry,
} from './form-sections.dto';

const TIMESTAMP = 'ISO 8601, seconds precision, numeric offset.';

export const FORM_STATUSES = ['not_started', 'started', 'completed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

/** The types an applicant added after the primary one can have. */
export const ADDED_APPLICANT_TYPES = ['co_applicant', 'guarantor'] as const;
export type AddedApplicantType = (typeof ADDED_APPLICANT_TYPES)[number];

/** An added applicant: the primary applicant's fields, and whether it lives there or guarantees the rent. */
export class AddedApplicantInput extends ApplicantInput {
  @EnumField(ADDED_APPLICANT_TYPES, { nullable: true })
  @ApiProperty({
    description:
      'co_applicant (the default) lives there and fills in the whole form; a guarantor does not live there and is ' +
      'asked only for identity, residence history, income and consent.',
    example: 'guarantor',
  })
  type?: AddedApplicantType | null;

  @BooleanField()
  @ApiProperty({
    description: 'E-mail the applicant an invitation with its own form link (the notifications service sends it).',
    default: false,
    example: true,
  })
  send_email?: boolean;
}

/** POST /api/v2/applications/:aid/applicants: a co-applicant or guarantor, under the primary applicant's rules. */
export class AddApplicantRequest {
  @NestedField(() => AddedApplicantInput, { required: true })
  applicant: AddedApplicantInput;
}

/**
 * A section that is an object, or null before it is saved. OpenAPI 3.0's `nullable` does not
 * reach into the `allOf` that a nullable `type` would make, so null is spelled out beside it.
 */
function nullableSection(type: new () => object, description: string, example: unknown): PropertyDecorator {
  return ApiProperty({
    anyOf: [{ $ref: getSchemaPath(type) }, { type: 'object', nullable: true, enum: [null] }],
    description,
    example,
  } as ApiPropertyOptions);
}

/** An applicant's own record. Its date of birth and SSN are never part of it. */
@ApiExtraModels(ConsentRecord, ApplicantIdentity, HouseholdSectionInput, EmergencyContactInput)
export class ApplicantRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  id: number;

  @ApiProperty({ type: 'integer', example: 1 })
  application_id: number;

  @ApiProperty({ enum: APPLICANT_TYPES, example: 'co_applicant' })
  type: ApplicantType;

  @ApiProperty({ example: 'Ada' })
  first_name: string;

  @ApiProperty({ example: 'Lovelace' })
  last_name: string;

  @ApiProperty({ description: 'First name followed by last name.', example: 'Ada Lovelace' })
  name: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The digits only.', example: '5550101234' })
  phone: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'crm-77' })
  reference_id: string | null;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true, example: 'https://landlord.example/thanks' })
  redirect_url: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The JSON object sent as custom_data, as sent.',
    example: { source: 'web' },
  })
  custom_data: Record<string, unknown> | null;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description:
      'The applicant’s own link into the online application form: <APPLY_BASE_URL>/applicants/<token>, the ' +
      'token unguessable. Null for applicants created before form links existed.',
    example: 'http://localhost:3003/applicants/AgAAAAAAAWr9hsAmofXOWyJ7lvCiPWS__SmySdI4wIkkyg7InjyVX0PZvf1B',
  })
  form_url: string | null;

  @ApiProperty({ enum: FORM_STATUSES, description: 'How far the applicant got in the form.', example: 'not_started' })
  form_status: FormStatus;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: TIMESTAMP, example: null })
  form_started_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: TIMESTAMP, example: null })
  form_completed_at: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    required: true,
    description:
      'When this co-applicant or guarantor withdrew from the application on its own withdraw page (applicant.withdrawn); ' +
      'the application goes on without it. Null otherwise, and always for the primary applicant, whose withdrawal ' +
      `withdraws the whole application (its decision). ${TIMESTAMP}`,
    example: null,
  })
  /** Always given by this release; optional in the type, as a service of the previous release answers without it. */
  withdrawn_at?: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'The answers given on the online form to its preset’s questions, by question id; null before.',
    example: { current_address: '1 Main St, Springfield', evicted: 'no' },
  })
  form_answers: Record<string, string> | null;

  @nullableSection(
    ApplicantIdentity,
    'The identity step of the form; null before it is saved. The date of birth, SSN and driver’s license number ' +
      'are sensitive data: only under sensitive_data.',
    { middle_name: 'Byron', drivers_license_state: 'NY' },
  )
  identity: ApplicantIdentity | null;

  @ApiProperty({
    type: [ResidenceEntry],
    nullable: true,
    maxItems: MAX_SECTION_ENTRIES,
    description: 'The address history, current first; null before it is saved.',
  })
  residences: ResidenceEntry[] | null;

  @ApiProperty({
    type: [EmploymentEntry],
    nullable: true,
    maxItems: MAX_SECTION_ENTRIES,
    description: 'Jobs; null before the employment step is saved.',
  })
  employment: EmploymentEntry[] | null;

  @ApiProperty({
    type: [OtherIncomeEntry],
    nullable: true,
    maxItems: MAX_SECTION_ENTRIES,
    description: 'Income besides jobs; null before the employment step is saved.',
  })
  other_income: OtherIncomeEntry[] | null;

  @nullableSection(
    HouseholdSectionInput,
    'The primary applicant’s household, null before it is saved: adults and guarantors (each added as an applicant ' +
      'with its own form_url when the form is completed), minors (occupants, with no form), pets, vehicles.',
    { adults: [], minors: [{ name: 'Sam Lovelace', age: 7 }], pets: [], vehicles: [], guarantors: [] },
  )
  household: HouseholdSectionInput | null;

  @nullableSection(EmergencyContactInput, 'Null before the emergency contact step is saved.', {
    name: 'Mary Somerville',
    relationship: 'Aunt',
    phone: '5550109876',
    email: null,
  })
  emergency_contact: EmergencyContactInput | null;

  @ApiProperty({
    // A nullable object: OpenAPI 3.0 ignores `nullable` beside a $ref, so null is its own branch.
    oneOf: [{ $ref: getSchemaPath(ConsentRecord) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'The consent the applicant signed on completing the form, as recorded then and never changed; null before.',
    example: null,
  })
  consent: ConsentRecord | null;

  @ApiProperty({ format: 'date-time', description: TIMESTAMP, example: '2026-11-22T14:03:09+00:00' })
  created_at: string;

  @ApiProperty({ format: 'date-time', description: TIMESTAMP, example: '2026-11-22T14:03:09+00:00' })
  updated_at: string;

  @ApiProperty({
    format: 'uri',
    description: '<PUBLIC_BASE_URL>/api/v2/applications/<application id>/applicants/<applicant id>: this record.',
    example: 'http://localhost:3000/api/v2/applications/1/applicants/2',
  })
  api_url: string;
}

export class ApplicantResponse {
  @ApiProperty()
  applicant: ApplicantRepresentation;
}

export class ApplicationListResponse {
  @ApiProperty({ type: [ApplicationRepresentation], description: 'Newest first.' })
  applications: ApplicationRepresentation[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null when there is none.',
    example: 'djE6MTI',
  })
  next_cursor: string | null;
}
