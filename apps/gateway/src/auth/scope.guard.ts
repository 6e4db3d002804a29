import { CanActivate, ExecutionContext, ForbiddenException } from '@nestjs/common';
import { ApiKeyScope } from '@app/contracts';
import { AuthenticatedRequest } from './api-key.guard';

/**
 * Lets through only a key that API_KEY_SCOPES grants `scope`; any other gets 403 saying which
 * scope `what` needs. A guard, after ApiKeyGuard, so that the refusal comes before the body is
 * looked at: a key without the scope learns nothing from a 422.
 */
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly scope: ApiKeyScope,
    private readonly what: string,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const credential = context.switchToHttp().getRequest<AuthenticatedRequest>().credential;
    if (!credential?.scopes.includes(this.scope)) {
      throw new ForbiddenException(
        `${this.what} needs the ${this.scope} scope, which this API key does not have (API_KEY_SCOPES)`,
      );
    }
    return true;
  }
}
