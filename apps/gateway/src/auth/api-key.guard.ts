import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiKeys } from './api-keys';

const BEARER = /^Bearer ([^\s]+)$/;

interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  clientId?: number;
}

/** Every /api/v2 request carries `Authorization: Bearer <key>`; the key names the client. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeys) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const key = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    const clientId = key ? this.keys.clientFor(key) : null;
    if (clientId === null) {
      throw new UnauthorizedException('a valid API key is required: Authorization: Bearer <api key>');
    }
    request.clientId = clientId;
    return true;
  }
}

/** The client account of the authenticated request. */
export const ClientId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const clientId = context.switchToHttp().getRequest<AuthenticatedRequest>().clientId;
  if (clientId === undefined) throw new UnauthorizedException('a valid API key is required');
  return clientId;
});
