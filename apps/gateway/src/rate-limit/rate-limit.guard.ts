import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../auth/api-key.guard';
import { GatewayEnvironment } from '../config/gateway.environment';
import { RateLimit, RateLimiter, retryAfterSeconds } from '@app/rate-limit';

/** 429: the client has spent its burst; `Retry-After` says when one more request will pass. */
export class RateLimitedException extends HttpException {
  constructor(
    readonly retryAfterSeconds: number,
    what = 'rate limit',
  ) {
    super(`${what} exceeded: retry after ${retryAfterSeconds} seconds`, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Takes a token of the bucket, or refuses the request with a 429 saying when to retry. */
async function spend(limiter: RateLimiter, bucket: string, limit: RateLimit, what?: string): Promise<void> {
  const decision = await limiter.take(bucket, limit);
  if (!decision.allowed) throw new RateLimitedException(retryAfterSeconds(decision), what);
}

function credentialOf(context: ExecutionContext): AuthenticatedRequest {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.credential) throw new Error('rate limit guards run after ApiKeyGuard');
  return request;
}

/**
 * Each API key has a token bucket: its own limit from API_KEYS, or the default. Runs after
 * ApiKeyGuard, which says whose request it is; ApiGate takes the token first on every /api/v2
 * request, so this only spends one for a route it did not see.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly defaultLimit: RateLimit;

  constructor(
    private readonly limiter: RateLimiter,
    env: GatewayEnvironment,
  ) {
    this.defaultLimit = { perSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { credential, rateLimited } = credentialOf(context);
    // Spent already by ApiGate, before the body was read.
    if (!rateLimited) await spend(this.limiter, credential!.bucket, credential!.rateLimit ?? this.defaultLimit);
    return true;
  }
}

/**
 * What makes the service send a request to a receiver on demand (a test event, a redelivery)
 * has a bucket of its own per API key, WEBHOOK_SENDS_PER_MINUTE, besides the key's rate limit:
 * a key cannot turn the service into a source of requests at a receiver of its choosing.
 */
@Injectable()
export class WebhookSendLimitGuard implements CanActivate {
  private readonly limit: RateLimit;
  private readonly what: string;

  constructor(
    private readonly limiter: RateLimiter,
    env: GatewayEnvironment,
  ) {
    const perMinute = env.WEBHOOK_SENDS_PER_MINUTE;
    this.limit = { perSecond: perMinute / 60, burst: perMinute };
    this.what = `webhook test and redeliver limit (${perMinute} a minute per API key)`;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await spend(this.limiter, `${credentialOf(context).credential!.bucket}:webhook-sends`, this.limit, this.what);
    return true;
  }
}
