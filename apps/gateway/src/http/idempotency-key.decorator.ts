import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { IdempotencyKeyPipe } from '@app/contracts';
import { AuthenticatedRequest } from '../auth/api-key.guard';

const pipe = new IdempotencyKeyPipe();

/** What a create message carries of its request's `Idempotency-Key`. */
export interface IdempotencyFields {
  idempotency_key: string | undefined;
  /** The API key that sent it, so that its claim answers only that key. */
  key_id: string | undefined;
}

/** The request's `Idempotency-Key` header, checked (undefined when it has none), and its API key. */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext): IdempotencyFields => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const key = pipe.transform(request.headers['idempotency-key']);
  return { idempotency_key: key, key_id: key === undefined ? undefined : request.credential?.keyId };
});
