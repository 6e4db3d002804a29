import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';

export class ErrorContent {
  @ApiProperty({ description: 'Human-readable description.', example: 'property 7 cannot be found' })
  message: string;

  @ApiProperty({
    type: [FieldProblem],
    nullable: true,
    description: 'For invalid input (422), every problem found, unknown fields included; null otherwise.',
    example: null,
  })
  details: FieldProblem[] | null;
}

/** The body of every error response of the API, whatever its status. Never a stack trace. */
export class ErrorResponse {
  @ApiProperty()
  error: ErrorContent;
}
