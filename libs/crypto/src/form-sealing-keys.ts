import { isKeyRing, isSingleKey } from '@app/config';
import { FORM_SEALING_PUBLIC_KEY_FORMAT } from './form-sealing';

/**
 * FORM_SEALING_KEYS, required where form-sealed values are opened: `id:base64key` entries of
 * 32-byte X25519 private keys. The refusal names the entry at fault and never quotes a key.
 */
export function isFormSealingKeys(): PropertyDecorator {
  return isKeyRing('FORM_SEALING_KEYS');
}

/** FORM_SEALING_PUBLIC_KEY, required by the form: one `id:base64key` entry, a 32-byte X25519 public key. */
export function isFormSealingPublicKey(): PropertyDecorator {
  return isSingleKey('FORM_SEALING_PUBLIC_KEY', FORM_SEALING_PUBLIC_KEY_FORMAT);
}

/**
 * FORM_LINK_KEYS, required by the applications service (which signs applicants' form links) and
 * the form (which checks them): `id:base64key` entries of 32-byte HMAC keys.
 */
export function isFormLinkKeys(): PropertyDecorator {
  return isKeyRing('FORM_LINK_KEYS');
}
