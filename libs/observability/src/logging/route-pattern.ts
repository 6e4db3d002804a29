import { IncomingMessage } from 'node:http';

const ROUTE_PATTERN = Symbol('route pattern');

/** What a request that matched no route is logged as: its path might hold anything. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Remembers, on the request the access log sees, the pattern of the route it matched
 * (`/applicants/:token`): the log names that, never the path, whose segments may be secrets
 * (an applicant's form link token) or personal data.
 */
export function recordRoutePattern(request: IncomingMessage, pattern: string | undefined): void {
  (request as IncomingMessage & { [ROUTE_PATTERN]?: string })[ROUTE_PATTERN] = pattern;
}

/** The route pattern recordRoutePattern remembered for `request`, or UNMATCHED_ROUTE. */
export function routePatternOf(request: object): string {
  return (request as { [ROUTE_PATTERN]?: string })[ROUTE_PATTERN] ?? UNMATCHED_ROUTE;
}
