import { isKeyRing } from '@app/config';

/**
 * FIELD_ENCRYPTION_KEYS, required: `id:base64key` entries of 32-byte keys. The refusal names the
 * entry at fault and never quotes key material.
 */
export function isFieldEncryptionKeys(): PropertyDecorator {
  return isKeyRing('FIELD_ENCRYPTION_KEYS');
}
