import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { BooleanField, IntegerField, NestedField } from '../validation/fields';

/**
 * Days a decided or withdrawn application keeps its applicants' personal data, counted from its
 * current decision, when the client set none: two years, long enough to answer a dispute of the
 * decision or a fair housing complaint, which are brought within that time.
 */
export const DEFAULT_PERSONAL_DATA_DAYS = 730;
/** The bounds a client may set: a day at least, ten years at most. */
export const MIN_PERSONAL_DATA_DAYS = 1;
export const MAX_PERSONAL_DATA_DAYS = 3650;
/**
 * Days a shortening waits before the sweep applies it, unless the request confirms it: time for
 * the client to notice a mistaken (or a stolen key's) change and undo it before anything is
 * erased for good.
 */
export const RETENTION_SHORTENING_DELAY_DAYS = 7;

const DAYS_DESCRIPTION =
  'Days a decided or withdrawn application keeps its applicants’ personal data (identity numbers, dates of birth, ' +
  'documents, addresses, income and the rest of what the form asked), counted from its current decision; then it is erased. ' +
  `${MIN_PERSONAL_DATA_DAYS} to ${MAX_PERSONAL_DATA_DAYS}.`;

/** `retention_settings` inside PUT /api/v2/retention_settings. */
export class RetentionSettingsInput {
  @IntegerField({ min: MIN_PERSONAL_DATA_DAYS, max: MAX_PERSONAL_DATA_DAYS, nullable: true })
  @ApiProperty({
    maximum: MAX_PERSONAL_DATA_DAYS,
    description:
      `${DAYS_DESCRIPTION} null sets the default, ${DEFAULT_PERSONAL_DATA_DAYS}; left out, it stays as it was. ` +
      `Fewer days than those in effect wait ${RETENTION_SHORTENING_DELAY_DAYS} days (pending_change) unless ` +
      'confirm_shortening is true; as many or more take effect at once.',
    example: 365,
  })
  personal_data_days?: number | null;

  @BooleanField()
  @ApiProperty({
    required: false,
    default: false,
    description:
      'true applies a shortening of personal_data_days at once: the next hourly sweep erases what it no longer keeps. ' +
      `Otherwise a shortening takes effect ${RETENTION_SHORTENING_DELAY_DAYS} days later.`,
    example: false,
  })
  confirm_shortening?: boolean;
}

/** PUT /api/v2/retention_settings */
export class PutRetentionSettingsRequest {
  @NestedField(() => RetentionSettingsInput, { required: true })
  retention_settings: RetentionSettingsInput;
}

/** A shortening of the retention period asked for without confirm_shortening: when it takes effect. */
export class PendingRetentionChange {
  @ApiProperty({ type: 'integer', minimum: MIN_PERSONAL_DATA_DAYS, maximum: MAX_PERSONAL_DATA_DAYS, example: 30 })
  personal_data_days: number;

  @ApiProperty({
    format: 'date-time',
    description: 'When the sweep starts to apply it. ISO 8601, seconds precision, numeric offset.',
    example: '2026-11-29T14:03:09+00:00',
  })
  effective_at: string;
}

@ApiExtraModels(PendingRetentionChange)
export class RetentionSettingsRepresentation {
  @ApiProperty({
    type: 'integer',
    minimum: MIN_PERSONAL_DATA_DAYS,
    maximum: MAX_PERSONAL_DATA_DAYS,
    description: `${DAYS_DESCRIPTION} The days in effect now: ${DEFAULT_PERSONAL_DATA_DAYS} unless the client set another.`,
    example: 730,
  })
  personal_data_days: number;

  @ApiProperty({
    // A nullable object: OpenAPI 3.0 ignores `nullable` beside a $ref, so null is its own branch.
    oneOf: [{ $ref: getSchemaPath(PendingRetentionChange) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'A shortening that waits to take effect; null when none does.',
    example: null,
  } as ApiPropertyOptions)
  /** Always sent from this release on; absent from a service of the release before. */
  pending_change?: PendingRetentionChange | null;
}

export class RetentionSettingsResponse {
  @ApiProperty({ type: RetentionSettingsRepresentation })
  retention_settings: RetentionSettingsRepresentation;
}
