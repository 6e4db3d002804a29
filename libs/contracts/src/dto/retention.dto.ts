import { ApiProperty } from '@nestjs/swagger';
import { IntegerField, NestedField } from '../validation/fields';

/**
 * Days a decided or withdrawn application keeps its applicants' personal data, counted from its
 * current decision, when the client set none: two years, long enough to answer a dispute of the
 * decision or a fair housing complaint, which are brought within that time.
 */
export const DEFAULT_PERSONAL_DATA_DAYS = 730;
/** The bounds a client may set: a day at least, ten years at most. */
export const MIN_PERSONAL_DATA_DAYS = 1;
export const MAX_PERSONAL_DATA_DAYS = 3650;

const DAYS_DESCRIPTION =
  'Days a decided or withdrawn application keeps its applicants’ personal data (identity numbers, dates of birth, ' +
  'documents, addresses, income and the rest of what the form asked), counted from its current decision; then it is erased. ' +
  `${MIN_PERSONAL_DATA_DAYS} to ${MAX_PERSONAL_DATA_DAYS}.`;

/** `retention_settings` inside PUT /api/v2/retention_settings. */
export class RetentionSettingsInput {
  @IntegerField({ min: MIN_PERSONAL_DATA_DAYS, max: MAX_PERSONAL_DATA_DAYS, nullable: true })
  @ApiProperty({
    maximum: MAX_PERSONAL_DATA_DAYS,
    description: `${DAYS_DESCRIPTION} null sets the default, ${DEFAULT_PERSONAL_DATA_DAYS}; left out, it stays as it was.`,
    example: 365,
  })
  personal_data_days?: number | null;
}

/** PUT /api/v2/retention_settings */
export class PutRetentionSettingsRequest {
  @NestedField(() => RetentionSettingsInput, { required: true })
  retention_settings: RetentionSettingsInput;
}

export class RetentionSettingsRepresentation {
  @ApiProperty({
    type: 'integer',
    minimum: MIN_PERSONAL_DATA_DAYS,
    maximum: MAX_PERSONAL_DATA_DAYS,
    description: `${DAYS_DESCRIPTION} ${DEFAULT_PERSONAL_DATA_DAYS} unless the client set another.`,
    example: 730,
  })
  personal_data_days: number;
}

export class RetentionSettingsResponse {
  @ApiProperty({ type: RetentionSettingsRepresentation })
  retention_settings: RetentionSettingsRepresentation;
}
