import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { NestedField } from '../validation/fields';
import { ConsentRecord } from './consent.dto';
import { APPLICANT_TYPES, ApplicantInput, ApplicantType, ApplicationRepresentation } from './application.dto';

const TIMESTAMP = 'ISO 8601, seconds precision, numeric offset.';

export const FORM_STATUSES = ['not_started', 'started', 'completed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

/** POST /api/v2/applications/:aid/applicants: a co-applicant, under the primary applicant's rules. */
export class AddApplicantRequest {
  @NestedField(() => ApplicantInput, { required: true })
  applicant: ApplicantInput;
}

/** An applicant's own record. Its date of birth and SSN are never part of it. */
@ApiExtraModels(ConsentRecord)
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
    example: 'http://localhost:3003/applicants/3q2-7wE9kVbYt1m0sQx4c8pLrA5uZf6nHjDg0oKiWyM',
  })
  form_url: string | null;

  @ApiProperty({ enum: FORM_STATUSES, description: 'How far the applicant got in the form.', example: 'not_started' })
  form_status: FormStatus;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: TIMESTAMP, example: null })
  form_started_at: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: TIMESTAMP, example: null })
  form_completed_at: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'The answers given on the online form to its preset’s questions, by question id; null before.',
    example: { current_address: '1 Main St, Springfield', evicted: 'no' },
  })
  form_answers: Record<string, string> | null;

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
