import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';

export class PartState {
  @ApiProperty({ enum: ['up', 'down'], example: 'up' })
  status: 'up' | 'down';

  @ApiProperty({
    required: false,
    description: 'Why a part is down.',
    example: 'the properties service did not answer within 1000 ms',
  })
  message?: string;
}

const partsByName = (description: string) =>
  ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(PartState) }, description });

/** Terminus's health check result: each part checked, by name. */
@ApiExtraModels(PartState)
export class HealthReport {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], example: 'ok' })
  status: 'ok' | 'error' | 'shutting_down';

  @partsByName('The parts that are up.')
  info: Record<string, PartState>;

  @partsByName('The parts that are down.')
  error: Record<string, PartState>;

  @partsByName('Every part checked.')
  details: Record<string, PartState>;
}

export class NotReadyContent {
  @ApiProperty({ description: 'Names the parts that are down.', example: 'not ready: properties' })
  message: string;

  @ApiProperty({ description: 'What the check found, part by part.' })
  details: HealthReport;
}

/** A failed readiness check: the API's error body, with the check's report as details. */
export class NotReadyResponse {
  @ApiProperty()
  error: NotReadyContent;
}
