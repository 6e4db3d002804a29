import { CanActivate, createParamDecorator, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { ApiCredential, ApiKeys } from './api-keys';

const BEARER = /^Bearer ([^\s]+)$/;

export const UNAUTHENTICATED_MESSAGE = 'a valid API key is required: Authorization: Bearer <api key>';

/** What the request's `Authorization: Bearer <key>` stands for, or null. */
export function credentialFrom(keys: ApiKeys, request: AuthenticatedRequest): ApiCredential | null {
  const header = request.headers.authorization;
  const key = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
  return key ? keys.identify(key) : null;
}

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  credential?: ApiCredential;
  /** Set once the request has spent its token (by ApiGate, before its body was read). */
  rateLimited?: boolean;
}

/**
 * Every /api/v2 request carries `Authorization: Bearer <key>`; the key names the client. ApiGate
 * has checked it already, before the body was read; this makes sure of it for every route.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.credential) return true;
    const credential = credentialFrom(this.keys, request);
    if (credential === null) throw new UnauthorizedException(UNAUTHENTICATED_MESSAGE);
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

/** The authenticated request's credential: its client, its key's fingerprint and scopes. */
export const Credential = createParamDecorator((_data: unknown, context: ExecutionContext): ApiCredential => {
  const credential = context.switchToHttp().getRequest<AuthenticatedRequest>().credential;
  if (credential === undefined) throw new UnauthorizedException('a valid API key is required');
  return credential;
});
