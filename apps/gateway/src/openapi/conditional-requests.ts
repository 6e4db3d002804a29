import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';

const ETAG = {
  ETag: { description: 'The entity tag of the representation, for If-None-Match and If-Match.', schema: { type: 'string' } },
};

/** A GET of one resource: its ETag, and 304 with no body when If-None-Match names it. */
export function ApiEntityTag(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'Entity tags (or *); when one is the current ETag, the answer is 304 with no body.',
      schema: { type: 'string' },
    }),
    ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current ETag.', headers: ETAG }),
  );
}

/** A PATCH or DELETE that an If-Match header makes conditional (412 when it no longer matches). */
export const IF_MATCH_HEADER = ApiHeader({
  name: 'If-Match',
  required: false,
  description:
    'The ETag of the representation the change was decided on (or *). When the resource has changed since, ' +
    'nothing is changed and the answer is 412.',
  schema: { type: 'string' },
});
