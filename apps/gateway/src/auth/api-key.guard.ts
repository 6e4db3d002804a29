import { CanActivate, createParamDecorator, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { ApiCredential, ApiKeys } from './api-keys';

const BEARER = /^Bearer ([^\s]+)$/;

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  credential?: ApiCredential;
}

/** Every /api/v2 request carries `Authorization: Bearer <key>`; the key names the client. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const key = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    const credential = key ? this.keys.identify(key) : null;
    if (credential === null) {
      throw new UnauthorizedException('a valid API key is required: Authorization: Bearer <api key>');
    }
    request.credential = credential;
    return true;
  }
}

/** The client account of the authenticated request. */
export const ClientId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const credential = context.switchToHttp().getRequest<AuthenticatedRequest>().credential;
  if (credential === undefined) throw new UnauthorizedException('a valid API key is required');
  return credential.clientId;
});
