import { encodeCursor, parsePageQuery } from './paging';
import { ErrorCode, ServiceError } from './errors';

function refusal(query: { limit?: unknown; cursor?: unknown }): ServiceError {
  try {
    parsePageQuery(query);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

describe('parsePageQuery', () => {
  it('defaults to 25 from the top, and reads a cursor it handed out', () => {
    expect(parsePageQuery({})).toEqual({ limit: 25 });
    expect(parsePageQuery({ limit: '100', cursor: encodeCursor(42) })).toEqual({ limit: 100, before: 42 });
  });

  it.each([['0'], ['101'], ['-1'], ['2.5'], ['ten'], ['']])('refuses limit %p as a 422 naming it', (limit) => {
    const error = refusal({ limit });
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.details).toEqual([{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
  });

  it.each([
    ['garbage'],
    [Buffer.from('v1:0').toString('base64url')],
    [Buffer.from('v2:5').toString('base64url')],
    ['a'.repeat(65)],
  ])('refuses cursor %p', (cursor) => {
    expect(refusal({ cursor }).details).toEqual([{ field: 'cursor', message: 'is not a cursor this API handed out' }]);
  });
});
