import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { addressBucket, networkBucket, perMinute, RateLimiter, retryAfterSeconds } from '@app/rate-limit';
import { Pages } from './pages';
import { STATIC_ASSET_PATHS } from './static-assets.http.controller';

/**
 * How many times one address's limit a whole IPv6 /48 may spend together: without it, each of its
 * 65,536 /64s would have a limit of its own.
 */
export const NETWORK_SHARE = 8;

/**
 * Takes one request of `kind` from the client address's bucket (`request.ip`: the socket's
 * address, or the one a trusted proxy forwarded), and for IPv6 from its /48's, which holds
 * NETWORK_SHARE times as many; the seconds to wait when over either (`count` a minute, or an hour).
 * Shared by every form instance when the limiter is (REDIS_URL).
 */
export async function overLimit(
  limiter: RateLimiter,
  kind: 'request' | 'submission' | 'upload',
  request: FastifyRequest,
  count: number,
  per: 'minute' | 'hour' = 'minute',
): Promise<number | null> {
  const limitOf = (n: number) => (per === 'minute' ? perMinute(n) : { perSecond: n / 3600, burst: n });
  const decision = await limiter.take(`form-${kind}:${addressBucket(request.ip)}`, limitOf(count));
  if (!decision.allowed) return retryAfterSeconds(decision);
  const network = networkBucket(request.ip);
  if (network === null) return null;
  const shared = await limiter.take(`form-${kind}:${network}`, limitOf(count * NETWORK_SHARE));
  return shared.allowed ? null : retryAfterSeconds(shared);
}

/** What the form serves from memory, asking no service: never counted. */
const STATIC_ROUTES = new Set(STATIC_ASSET_PATHS);

/**
 * The one-click unsubscribe POST of an e-mail's List-Unsubscribe header (RFC 8058): a mail
 * provider sends it for its readers from a few addresses of its own, so a limit per address would
 * drop the unsubscriptions of everyone behind them. It asks nothing before its token is seen to be
 * well formed, then one lookup by that token's digest; stopping mail is never worse than sending it.
 */
export const ONE_CLICK_UNSUBSCRIBE_ROUTE = '/mail/unsubscribe/:token';

/**
 * Counts every request to the form's pages, GETs included, against its client address's limit
 * before any route runs, so no service is asked (and no database read) for a request over it;
 * over the limit, a 429 page with Retry-After. Not the one-click unsubscribe POST.
 */
export function limitRequests(app: NestFastifyApplication, limiter: RateLimiter, count: number): void {
  const pages = new Pages("'none'");
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const route = request.routeOptions.url ?? '';
      if (STATIC_ROUTES.has(route)) return;
      if (request.method === 'POST' && route === ONE_CLICK_UNSUBSCRIBE_ROUTE) return;
      const retryAfter = await overLimit(limiter, 'request', request, count);
      if (retryAfter === null) return;
      reply.header('retry-after', String(retryAfter));
      return pages.send(reply, 429, 'message', {
        title: 'Too many requests',
        message: 'Too many pages were asked for from your network. Wait a minute and try again.',
        iframe: false,
      });
    });
}
