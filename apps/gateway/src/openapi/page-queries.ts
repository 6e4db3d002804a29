import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@app/contracts';

/** The `limit` and `cursor` of a paged list of `items` (`Applications`, say). */
export function ApiPageQueries(items: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
      description: `${items} per page, 1 to ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}.`,
      example: DEFAULT_PAGE_SIZE,
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      schema: { type: 'string' },
      description: 'The next_cursor of the page before.',
      example: 'djE6MTI',
    }),
  );
}
