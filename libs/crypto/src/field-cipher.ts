import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keyRingFormat, parseKeyRing, RingKey } from '@app/config';
import { SealedValue } from '@app/contracts';

const ALGORITHM = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export const FIELD_ENCRYPTION_KEYS_FORMAT = keyRingFormat('FIELD_ENCRYPTION_KEYS');

/** Why a sealed value cannot be opened. Its message never holds a key or a plaintext. */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueError';
  }
}

/** The value was sealed under a key the ring no longer holds: it opens again once the key is put back. */
export class UnknownKeyError extends SealedValueError {
  constructor(readonly keyId: string) {
    super(`sealed with unknown key id ${JSON.stringify(keyId)}`);
    this.name = 'UnknownKeyError';
  }
}

type FieldKey = RingKey;

/**
 * Reads `id:base64key,id:base64key,...`. Throws an Error naming the variable and the entry at
 * fault, never quoting the key material.
 */
export function parseFieldEncryptionKeys(text: string | undefined): FieldKey[] {
  return parseKeyRing('FIELD_ENCRYPTION_KEYS', text);
}

/**
 * The format of a sealed value whose associated data names its owner besides its field (`v`);
 * values without `v` were sealed for their field alone.
 */
export const OWNER_BOUND = 2;

/**
 * Encrypts single field values with AES-256-GCM: a fresh random nonce per value, the key id
 * stored beside it, and `context` (the field's name) bound in as associated data, so that a
 * sealed SSN cannot be passed off as a date of birth; with an `owner` (who and what the value
 * belongs to) bound in as well, so that it cannot be moved to another record or tenant either.
 * The first key encrypts; every key decrypts, so a new key can be put first while values sealed
 * under the old ones stay readable.
 */
export class FieldCipher {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly current: FieldKey;

  constructor(config: string | undefined) {
    const keys = parseFieldEncryptionKeys(config);
    this.current = keys[0];
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plaintext: string, context: string, owner?: string): SealedValue {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.current.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(context, owner));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      ...(owner === undefined ? {} : { v: OWNER_BOUND }),
      key_id: this.current.id,
      nonce: nonce.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
    };
  }

  /**
   * The plaintext of a value sealed for `context` (and `owner`, when it was sealed for one);
   * throws SealedValueError otherwise. Whether a value sealed without an owner is acceptable is
   * the caller's to decide (isOwnerBound).
   */
  open(sealed: unknown, context: string, owner?: string): string {
    if (!isSealedValue(sealed)) throw new SealedValueError('not a sealed value');
    if (sealed.v !== undefined && sealed.v !== OWNER_BOUND) throw new SealedValueError('sealed in an unknown format');
    if (sealed.v === OWNER_BOUND && owner === undefined) throw new SealedValueError('sealed for an owner, opened for none');
    const key = this.keys.get(sealed.key_id);
    if (!key) throw new UnknownKeyError(sealed.key_id.slice(0, 32));
    const nonce = Buffer.from(sealed.nonce, 'base64');
    const tag = Buffer.from(sealed.tag, 'base64');
    if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) throw new SealedValueError('malformed sealed value');
    try {
      const decipher = createDecipheriv(ALGORITHM, key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(context, sealed.v === OWNER_BOUND ? owner : undefined));
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
      return plaintext.toString('utf8');
    } catch {
      throw new SealedValueError('sealed value failed authentication');
    }
  }
}

/** Whether the value was sealed for an owner, not only for its field. */
export function isOwnerBound(sealed: unknown): boolean {
  return isSealedValue(sealed) && sealed.v === OWNER_BOUND;
}

function associatedData(context: string, owner: string | undefined): Buffer {
  return Buffer.from(owner === undefined ? context : `${context}\n${owner}`, 'utf8');
}

export function isSealedValue(value: unknown): value is SealedValue {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (['key_id', 'nonce', 'ciphertext', 'tag'] as const).every((name) => typeof candidate[name] === 'string');
}
