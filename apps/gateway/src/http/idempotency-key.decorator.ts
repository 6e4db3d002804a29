import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { IdempotencyKeyPipe } from '@app/contracts';

const pipe = new IdempotencyKeyPipe();

/** The request's `Idempotency-Key` header, checked; undefined when it has none. */
export const IdempotencyKey = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers['idempotency-key'];
  return pipe.transform(header);
});
