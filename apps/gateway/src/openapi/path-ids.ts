import { applyDecorators } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

/**
 * An id in a path is an integer, as every id the API hands out is, so that a client typed from
 * the document passes on the ids it was given as they are. A path whose id is not a positive
 * integer still reaches its route and is answered 404, as each operation's 404 says: no resource
 * has such an id.
 */
const PATH_ID_SCHEMA = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** The path parameter `name`, the id of what `description` names. */
export function ApiPathId(name: string, description: string, example = 1): MethodDecorator & ClassDecorator {
  return ApiParam({ name, description, example, schema: PATH_ID_SCHEMA });
}

/** The path parameters of an applicant, for every route under its api_url. */
export const APPLICANT_PARAMS = applyDecorators(
  ApiPathId('application_id', 'The application’s id, a positive integer.'),
  ApiPathId('id', 'The applicant’s id, a positive integer.', 2),
);
