import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '../auth/api-key.guard';
import { GatewayEnvironment } from '../config/gateway.environment';
import { RateLimit, RateLimiter, retryAfterSeconds } from '@app/rate-limit';

/** 429: the client has spent its burst; `Retry-After` says when one more request will pass. */
export class RateLimitedException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limit exceeded: retry after ${retryAfterSeconds} seconds`, HttpStatus.TOO_MANY_REQUESTS);
  }
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
    const { credential, rateLimited } = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!credential) throw new Error('RateLimitGuard runs after ApiKeyGuard');
    // Spent already by ApiGate, before the body was read.
    if (rateLimited) return true;
    const decision = await this.limiter.take(credential.bucket, credential.rateLimit ?? this.defaultLimit);
    if (!decision.allowed) throw new RateLimitedException(retryAfterSeconds(decision));
    return true;
  }
}
