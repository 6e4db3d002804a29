import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { keyRingFormat, parseKeyRing, parseSingleKey } from '@app/config';
import { FormSealedValue } from '@app/contracts';
import { SealedValueError } from './field-cipher';

/** The format a FormSealedValue names in `v`: a FieldCipher value never has it, nor it a FieldCipher `v`. */
export const SEALED_TO_PUBLIC_KEY = 3;

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const INFO = Buffer.from('form sealing: x25519, hkdf-sha256, aes-256-gcm', 'utf8');
// What a raw 32-byte X25519 key is wrapped in to be read as PKCS#8 or SPKI (RFC 8410).
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

export const FORM_SEALING_KEYS_FORMAT = keyRingFormat('FORM_SEALING_KEYS');
export const FORM_SEALING_PUBLIC_KEY_FORMAT =
  'FORM_SEALING_PUBLIC_KEY must be one id:base64key entry: the id and public key of the first entry of ' +
  "the applications service's FORM_SEALING_KEYS (FORM_SEALING_KEYS=... node scripts/form-keys.js public)";

/** An X25519 public key, 32 bytes, as FORM_SEALING_PUBLIC_KEY gives it. */
export function x25519PublicKey(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** An X25519 private key, 32 bytes (any 32 random bytes are one), as FORM_SEALING_KEYS lists them. */
export function x25519PrivateKey(raw: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
}

/** The 32 raw bytes of an X25519 public key. */
export function rawPublicKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}

/**
 * FORM_SEALING_PUBLIC_KEY for a FORM_SEALING_KEYS ring: the id and public key of its first entry,
 * the one the form seals to.
 */
export function formSealingPublicKey(formSealingKeys: string): string {
  const [first] = parseKeyRing('FORM_SEALING_KEYS', formSealingKeys);
  return `${first.id}:${rawPublicKey(createPublicKey(x25519PrivateKey(first.key))).toString('base64')}`;
}

/**
 * Seals values to a public key (an ECIES-style sealed box): each value gets a fresh X25519 key
 * pair, whose shared secret with the recipient's key, through HKDF-SHA256, is the AES-256-GCM
 * key; the one-time public key travels beside the ciphertext and the one-time private key is
 * dropped. The form seals with it: it holds no key that opens what it sealed, or anything
 * else stored, so a form instance taken over reads nothing but what applicants type into it
 * from then on. `context` (the field) and `owner` are bound in as associated data, as FieldCipher
 * binds them.
 */
export class FormSealer {
  private readonly keyId: string;
  private readonly recipient: KeyObject;
  private readonly recipientRaw: Buffer;

  /** `publicKey`: FORM_SEALING_PUBLIC_KEY, `id:base64key`. */
  constructor(publicKey: string | undefined) {
    const { id, key } = parseSingleKey('FORM_SEALING_PUBLIC_KEY', publicKey, FORM_SEALING_PUBLIC_KEY_FORMAT);
    this.keyId = id;
    this.recipientRaw = key;
    this.recipient = x25519PublicKey(key);
  }

  seal(plaintext: string, context: string, owner: string): FormSealedValue {
    const ephemeral = generateKeyPairSync('x25519');
    const ephemeralRaw = rawPublicKey(ephemeral.publicKey);
    const key = contentKey(
      diffieHellman({ privateKey: ephemeral.privateKey, publicKey: this.recipient }),
      ephemeralRaw,
      this.recipientRaw,
    );
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(context, owner));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: SEALED_TO_PUBLIC_KEY,
      key_id: this.keyId,
      ephemeral_key: ephemeralRaw.toString('base64'),
      nonce: nonce.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
    };
  }
}

/**
 * Opens what a FormSealer sealed, with the private keys of FORM_SEALING_KEYS: the first is the one
 * the form seals to, every one opens, so a new key pair can be put first (and its public key
 * given to the forms) while values sealed to the old one still open. Refuses anything else,
 * a FieldCipher value included: what the form sends is never taken for what a gateway sealed.
 */
export class FormOpener {
  private readonly keys: ReadonlyMap<string, { privateKey: KeyObject; publicRaw: Buffer }>;

  /** `privateKeys`: FORM_SEALING_KEYS, `id:base64key` entries of 32-byte X25519 private keys. */
  constructor(privateKeys: string | undefined) {
    this.keys = new Map(
      parseKeyRing('FORM_SEALING_KEYS', privateKeys).map(({ id, key }) => {
        const privateKey = x25519PrivateKey(key);
        return [id, { privateKey, publicRaw: rawPublicKey(createPublicKey(privateKey)) }];
      }),
    );
  }

  /** The plaintext of a value sealed for `context` and `owner`; throws SealedValueError otherwise. */
  open(sealed: unknown, context: string, owner: string): string {
    if (!isFormSealedValue(sealed)) throw new SealedValueError('not a value sealed to a form sealing key');
    const recipient = this.keys.get(sealed.key_id);
    if (!recipient) throw new SealedValueError(`sealed to unknown key id ${JSON.stringify(sealed.key_id.slice(0, 32))}`);
    const ephemeralRaw = Buffer.from(sealed.ephemeral_key, 'base64');
    const nonce = Buffer.from(sealed.nonce, 'base64');
    const tag = Buffer.from(sealed.tag, 'base64');
    if (ephemeralRaw.length !== KEY_BYTES || nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) {
      throw new SealedValueError('malformed sealed value');
    }
    try {
      const shared = diffieHellman({ privateKey: recipient.privateKey, publicKey: x25519PublicKey(ephemeralRaw) });
      const decipher = createDecipheriv('aes-256-gcm', contentKey(shared, ephemeralRaw, recipient.publicRaw), nonce, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(associatedData(context, owner));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      // A low-order ephemeral key (no shared secret) fails here too, as a forgery.
      throw new SealedValueError('sealed value failed authentication');
    }
  }
}

/** Whether `value` has the shape of a FormSealedValue (not whether it opens). */
export function isFormSealedValue(value: unknown): value is FormSealedValue {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.v === SEALED_TO_PUBLIC_KEY &&
    (['key_id', 'ephemeral_key', 'nonce', 'ciphertext', 'tag'] as const).every((name) => typeof candidate[name] === 'string')
  );
}

/** The AES key of one value: both public keys go into HKDF's salt, so the key is bound to the pair. */
function contentKey(shared: Buffer, ephemeralRaw: Buffer, recipientRaw: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.concat([ephemeralRaw, recipientRaw]), INFO, KEY_BYTES));
}

function associatedData(context: string, owner: string): Buffer {
  return Buffer.from(`${context}\n${owner}`, 'utf8');
}
