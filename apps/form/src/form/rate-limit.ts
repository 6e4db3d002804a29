import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Pages } from './pages';
import { STATIC_ASSET_PATHS } from './static-assets.http.controller';

/** One client address's submissions in the current window. */
interface Window {
  started: number;
  count: number;
}

const WINDOW_MS = 60_000;
/** Addresses remembered at most; beyond that the oldest windows are forgotten first. */
const MAX_TRACKED = 100_000;

/**
 * Submissions per client IP address and minute, counted by this instance (a fixed window). It
 * keeps one address from filling the database with applications or guessing form links fast.
 */
export class SubmissionRateLimit {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one submission from `address`; false when it is over the limit. */
  allow(address: string): boolean {
    const now = this.now();
    let window = this.windows.get(address);
    if (!window || now - window.started >= WINDOW_MS) {
      this.windows.delete(address);
      window = { started: now, count: 0 };
      this.windows.set(address, window);
      if (this.windows.size > MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count++;
    return window.count <= this.perMinute;
  }

  /** Seconds until `address` may submit again. */
  retryAfterSeconds(address: string): number {
    const window = this.windows.get(address);
    return window ? Math.max(1, Math.ceil((window.started + WINDOW_MS - this.now()) / 1000)) : 1;
  }
}

/** What the form serves from memory, asking no service: never counted. */
const STATIC_ROUTES = new Set(STATIC_ASSET_PATHS);

/**
 * Counts every request to the form's pages, GETs included, against its client address's limit
 * before any route runs, so no service is asked (and no database read) for a request over it;
 * over the limit, a 429 page with Retry-After.
 */
export function limitRequests(app: NestFastifyApplication, perMinute: number): void {
  const limit = new SubmissionRateLimit(perMinute);
  const pages = new Pages("'none'");
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (STATIC_ROUTES.has(request.routeOptions.url ?? '') || limit.allow(request.ip)) return;
      reply.header('retry-after', String(limit.retryAfterSeconds(request.ip)));
      return pages.send(reply, 429, 'message', {
        title: 'Too many requests',
        message: 'Too many pages were asked for from your network. Wait a minute and try again.',
        iframe: false,
      });
    });
}
