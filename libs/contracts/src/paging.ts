import { ErrorCode, FieldProblem, ServiceError } from './errors';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** A page of a list, newest first: at most `limit` items with ids below `before` (if set). */
export interface PageRequest {
  limit: number;
  /** Only ids lower than this one; absent on the first page. */
  before?: number;
}

/** What a list message answers: the page and, when more follow, the cursor of the next page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

const CURSOR_PREFIX = 'v1:';

/** An opaque cursor naming the position after `lastId` (the last item of a page). */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${lastId}`).toString('base64url');
}

/**
 * Reads `limit` (1..100, default 25) and `cursor` from a query string; a bad value is a 422
 * naming the parameter.
 */
export function parsePageQuery(query: { limit?: unknown; cursor?: unknown }): PageRequest {
  const problems: FieldProblem[] = [];
  let limit = DEFAULT_PAGE_SIZE;
  if (query.limit !== undefined) {
    const text = String(query.limit);
    limit = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) {
      problems.push({ field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
    }
  }
  let before: number | undefined;
  if (query.cursor !== undefined) {
    before = decodeCursor(String(query.cursor)) ?? undefined;
    if (before === undefined) problems.push({ field: 'cursor', message: 'is not a cursor this API handed out' });
  }
  if (problems.length > 0) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `${problems[0].field} ${problems[0].message}`, problems);
  }
  return before === undefined ? { limit } : { limit, before };
}

/**
 * parsePageQuery for a parser that gathers every problem of a query: the paging problems go
 * first into `problems`, and the answer is undefined when there are any.
 */
export function collectPageQuery(
  query: { limit?: unknown; cursor?: unknown },
  problems: FieldProblem[],
): PageRequest | undefined {
  try {
    return parsePageQuery(query);
  } catch (error) {
    if (!(error instanceof ServiceError) || !error.details) throw error;
    problems.unshift(...error.details);
    return undefined;
  }
}

function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!text.startsWith(CURSOR_PREFIX)) return null;
  const id = text.slice(CURSOR_PREFIX.length);
  return /^[1-9]\d{0,15}$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : null;
}
