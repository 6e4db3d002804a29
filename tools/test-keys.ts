/**
 * The keys a test stack runs with: the API keys of its two clients, and fresh entries for the
 * key rings (FIELD_ENCRYPTION_KEYS and the like, FORM_SEALING_KEYS and its public key).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export const KEYS = {
  clientOne: 'test-key-client-one',
  clientTwo: 'test-key-client-two',
} as const;

/** A FIELD_ENCRYPTION_KEYS (or FINGERPRINT_KEYS, CSRF_KEYS, FORM_LINK_KEYS) entry with a fresh random key. */
export function testFieldKey(id: string): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

/**
 * A FORM_SEALING_KEYS entry with a fresh X25519 private key (`privateKey`), and the
 * FORM_SEALING_PUBLIC_KEY entry of its public key (`publicKey`).
 */
export function testFormSealingKey(id: string): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync('x25519');
  const raw = (base64url: string | undefined) => Buffer.from(base64url!, 'base64url').toString('base64');
  return {
    privateKey: `${id}:${raw(pair.privateKey.export({ format: 'jwk' }).d)}`,
    publicKey: `${id}:${raw(pair.publicKey.export({ format: 'jwk' }).x)}`,
  };
}
