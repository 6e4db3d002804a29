import { Injectable, PipeTransform } from '@nestjs/common';
import { ErrorCode, ServiceError } from '../errors';
import { IDEMPOTENCY_KEY } from '../messages';

export const IDEMPOTENCY_KEY_PROBLEM = 'must be 1 to 255 printable ASCII characters';

/** An Idempotency-Key as sent (the header at the gateway, the field in a message), or undefined. */
@Injectable()
export class IdempotencyKeyPipe implements PipeTransform<unknown, string | undefined> {
  transform(value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && IDEMPOTENCY_KEY.test(value)) return value;
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, `Idempotency-Key ${IDEMPOTENCY_KEY_PROBLEM}`, [
      { field: 'Idempotency-Key', message: IDEMPOTENCY_KEY_PROBLEM },
    ]);
  }
}

/**
 * The `key_id` of a create message: the API key that sent its Idempotency-Key, or undefined
 * (a gateway of the previous release sends none). Anything else is not from the gateway.
 */
@Injectable()
export class ApiKeyIdPipe implements PipeTransform<unknown, string | undefined> {
  transform(value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && /^[0-9a-f]{16}$/.test(value)) return value;
    throw new ServiceError(ErrorCode.INTERNAL, 'malformed key_id');
  }
}
