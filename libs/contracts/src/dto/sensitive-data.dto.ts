import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { AUDIT_ACTIONS, ERASURE_TRIGGERS, ErasureTrigger } from '../applicant-messages';
import { ApplicantRepresentation } from './applicant.dto';

const TIMESTAMP = 'ISO 8601, seconds precision, numeric offset.';

/** An applicant's identity fields, in clear: only to a key with the sensitive_data scope that asks. */
export class ApplicantSensitiveData {
  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description: 'Date of birth, YYYY-MM-DD.',
    example: '1985-12-10',
  })
  dob: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Social security number, its nine digits.', example: '123456789' })
  id_number: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Driver’s license number, as given on the form.',
    example: 'D1234567',
  })
  drivers_license_number: string | null;
}

export class ApplicantWithSensitiveData extends ApplicantRepresentation {
  @ApiProperty({
    required: false,
    description:
      'Only with ?include=sensitive_data, to a key granted the sensitive_data scope; the answer is then ' +
      'Cache-Control: no-store and the read is recorded as an audit event.',
  })
  sensitive_data?: ApplicantSensitiveData;
}

export class ApplicantWithSensitiveDataResponse {
  @ApiProperty()
  applicant: ApplicantWithSensitiveData;
}

/** What a retention_settings.changed event changed: the days before and after, and when the new ones apply. */
export class AuditedRetentionChange {
  @ApiProperty({ type: 'integer', description: 'personal_data_days in effect before the change.', example: 730 })
  personal_data_days_before: number;

  @ApiProperty({ type: 'integer', description: 'personal_data_days asked for.', example: 30 })
  personal_data_days_after: number;

  @ApiProperty({
    format: 'date-time',
    description: `When the days asked for take effect: at once, or later for a shortening not confirmed. ${TIMESTAMP}`,
    example: '2026-11-29T14:03:09+00:00',
  })
  effective_at: string;
}

/** A recorded read of an applicant's sensitive data, the erasure of its personal data, or a change of its retention. */
@ApiExtraModels(AuditedRetentionChange)
export class AuditEventRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  id: number;

  @ApiProperty({
    enum: AUDIT_ACTIONS,
    description:
      'sensitive_data.read: the applicant’s sensitive data was read. personal_data.erased: its personal data was erased, ' +
      'at a request through the API, at the end of the client’s retention period, or as a form abandoned on the public ' +
      'form (ABANDONED_FORM_DAYS): `trigger` says which. retention_settings.changed: the client’s retention period was ' +
      'changed (PUT /api/v2/retention_settings): `retention_change` says from what to what. suppression.lifted: the ' +
      'key lifted an address’s suppression for the client’s mail (DELETE /api/v2/suppressions/{email}); the request id ' +
      'names the request in the logs.',
    example: 'sensitive_data.read',
  })
  action: string;

  @ApiProperty({ type: 'integer', example: 1 })
  client_id: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Which API key read, asked for the erasure or changed the retention: the first 16 hex digits of the SHA-256 of the ' +
      'key, never the key. Null on an erasure at the end of the retention period or of an abandoned form, which no key ' +
      'asked for (`trigger` names what did).',
    example: '3f1c0d9e2b7a4c55',
  })
  key_id: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Null on a retention_settings.changed event.', example: 1 })
  application_id: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Null on a retention_settings.changed event.', example: 2 })
  applicant_id: number | null;

  @ApiProperty({
    type: 'string',
    enum: ['applicant', 'document', 'document_list', 'summary_pdf'],
    nullable: true,
    description:
      'What was read: the applicant’s sensitive data through the API (`applicant`), one document’s bytes ' +
      '(`document`, named by `document_id`), the list of the applicant’s documents (`document_list`), or the ' +
      'applicant laid out in a summary PDF (`summary_pdf`). Null on events recorded before reads were told apart.',
    example: 'applicant',
  })
  /** Always sent from this release on; optional for a service of the previous release, which sends none. */
  read?: 'applicant' | 'document' | 'document_list' | 'summary_pdf' | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The document downloaded, on a `document` read; else null.',
    example: null,
  })
  document_id?: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The X-Request-Id of the read or of the erasure’s request: the caller’s when it is 1 to 128 of ' +
      'A-Z a-z 0-9 . _ : -, else one the gateway made. Null on an erasure at the end of the retention period or of an ' +
      'abandoned form.',
    example: '4bf92f35-77b3-4da6-a3ce-929d0e0e4736',
  })
  request_id: string | null;

  @ApiProperty({
    type: 'string',
    // null listed too: a nullable enum holds only the values it lists.
    enum: [...ERASURE_TRIGGERS, null],
    nullable: true,
    description:
      'What made a personal_data.erased event’s erasure: a request through the API by the key named (`api_request`), ' +
      'the end of the client’s retention period after a decision (`retention_period`), or a form abandoned on the ' +
      'public form (`abandoned_form`). Null on other actions, and on erasures recorded before triggers were told.',
    example: null,
  })
  /** Always sent from this release on; absent from a service of the release before. */
  trigger?: ErasureTrigger | null;

  @ApiProperty({
    // A nullable object: OpenAPI 3.0 ignores `nullable` beside a $ref, so null is its own branch.
    oneOf: [{ $ref: getSchemaPath(AuditedRetentionChange) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'On a retention_settings.changed event, what changed; else null.',
    example: null,
  } as ApiPropertyOptions)
  /** Always sent from this release on; absent from a service of the release before. */
  retention_change?: AuditedRetentionChange | null;

  @ApiProperty({ format: 'date-time', description: TIMESTAMP, example: '2026-11-22T14:03:09+00:00' })
  created_at: string;
}

export class AuditEventListResponse {
  @ApiProperty({ type: [AuditEventRepresentation], description: 'Newest first.' })
  audit_events: AuditEventRepresentation[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null when there is none.',
    example: 'djE6MTI',
  })
  next_cursor: string | null;
}
