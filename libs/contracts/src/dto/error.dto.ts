import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';

/**
 * Problems an error body lists at most: a body of 64 KiB can hold thousands of unknown fields,
 * and the first hundred say enough to fix the request by.
 */
export const MAX_ERROR_DETAILS = 100;

export class ErrorContent {
  @ApiProperty({ description: 'Human-readable description.', example: 'property 7 cannot be found' })
  message: string;

  @ApiProperty({
    type: [FieldProblem],
    nullable: true,
    maxItems: MAX_ERROR_DETAILS,
    description: `For invalid input (422), every problem found (the first ${MAX_ERROR_DETAILS}), unknown fields included; null otherwise.`,
    example: null,
  })
  details: FieldProblem[] | null;
}

/** The body of every error response of the API, whatever its status. Never a stack trace. */
export class ErrorResponse {
  @ApiProperty()
  error: ErrorContent;
}
