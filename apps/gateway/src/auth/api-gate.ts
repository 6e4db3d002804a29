import { UnauthorizedException } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedException } from '../rate-limit/rate-limit.guard';
import { addressBucket, RateLimit, RateLimiter, retryAfterSeconds } from '@app/rate-limit';
import { AuthenticatedRequest, credentialFrom, UNAUTHENTICATED_MESSAGE } from './api-key.guard';
import { ApiKeys } from './api-keys';

const API_ROUTES = '/api/v2/';

export interface ApiGateLimits {
  /** Each key's limit, unless API_KEYS gives it its own. */
  perKey: RateLimit;
  /** What one client address may send without a valid key, in all. */
  unauthenticatedPerAddress: RateLimit;
}

/**
 * Who may use the API, decided from the request's headers alone, before Fastify reads its body:
 * the API key names the client and spends a token of the key's rate limit; a request without a
 * valid key spends a token of its address's limit and is refused, 401 (or 429 once the address
 * has spent its burst). So neither a caller without a key nor one past its limit makes the
 * gateway read and parse a body.
 */
export class ApiGate {
  constructor(
    private readonly keys: ApiKeys,
    private readonly limiter: RateLimiter,
    private readonly limits: ApiGateLimits,
  ) {}

  /**
   * Resolves with the request's credential on it, or rejects with the 401 or 429 to answer; either
   * way the reply says what is left of the limit it was counted against (rateLimitHeaders).
   */
  async admit(request: FastifyRequest & AuthenticatedRequest, reply: FastifyReply): Promise<void> {
    const credential = credentialFrom(this.keys, request);
    if (credential === null) {
      await this.spend(reply, addressBucket(request.ip), this.limits.unauthenticatedPerAddress);
      throw new UnauthorizedException(UNAUTHENTICATED_MESSAGE);
    }
    await this.spend(reply, credential.bucket, credential.rateLimit ?? this.limits.perKey);
    request.credential = credential;
    request.rateLimited = true;
  }

  private async spend(reply: FastifyReply, bucket: string, limit: RateLimit): Promise<void> {
    const decision = await this.limiter.take(bucket, limit);
    const retryAfter = retryAfterSeconds(decision);
    for (const [name, value] of Object.entries(rateLimitHeaders(limit, decision.allowed ? decision.remaining : 0, retryAfter))) {
      reply.header(name, value);
    }
    if (!decision.allowed) throw new RateLimitedException(retryAfter);
  }
}

/**
 * Runs the gate on every request to an /api/v2 route, as a Fastify onRequest hook: routed, not yet
 * read. A path that names no route stays a 404, as it was before any key was looked at.
 */
export function gateApi(app: NestFastifyApplication, gate: ApiGate): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.url?.startsWith(API_ROUTES)) {
        await gate.admit(request as FastifyRequest & AuthenticatedRequest, reply);
      }
    });
}

/**
 * The IETF draft's RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers):
 * the policy is the bucket (`q` requests, refilled over `w` seconds); `r` is what is left now,
 * `t` the seconds until one more request is allowed (0 while some are left).
 */
export function rateLimitHeaders({ perSecond, burst }: RateLimit, remaining: number, retryAfter: number): Record<string, string> {
  const window = Math.max(1, Math.ceil(burst / perSecond));
  return {
    'ratelimit-policy': `"default";q=${burst};w=${window}`,
    ratelimit: `"default";r=${remaining};t=${remaining > 0 ? 0 : retryAfter}`,
  };
}
