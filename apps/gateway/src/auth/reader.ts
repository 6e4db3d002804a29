import { randomUUID } from 'node:crypto';
import { SensitiveReader } from '@app/contracts';
import { currentRequestId } from '@app/observability';
import { ApiCredential } from './api-keys';

/**
 * Who reads sensitive data, as its audit event names it: the key's fingerprint and the request's
 * id (the caller's X-Request-Id only when it is a sensible one, see requestIdFrom).
 */
export function readerOf(credential: ApiCredential): SensitiveReader {
  return { key_id: credential.keyId, request_id: currentRequestId() ?? randomUUID() };
}
