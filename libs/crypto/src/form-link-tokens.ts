import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseKeyRing } from '@app/config';
import { parseFieldEncryptionKeys } from './field-cipher';

const FORMAT = 2;
const APPLICATION_ID_BYTES = 6;
const ISSUED_BYTES = 4;
const RANDOM_BYTES = 18;
const MAC_BYTES = 16;
const SIGNED_BYTES = 1 + APPLICATION_ID_BYTES + ISSUED_BYTES + RANDOM_BYTES;
const TOKEN_BYTES = SIGNED_BYTES + MAC_BYTES;

/** What an applicant's form link token looks like: 45 bytes in base64url. */
export const FORM_LINK_TOKEN = /^[A-Za-z0-9_-]{60}$/;

/** What a form link token says, once its MAC is checked: no secret, but nobody else could have made it. */
export interface FormLinkClaims {
  applicationId: number;
  issuedAt: Date;
}

/**
 * Applicants' form link tokens: a format byte, the application id (6 bytes), the issue time
 * (seconds, 4 bytes), 18 random bytes and a MAC (HMAC-SHA256 of all that, 16 bytes), in
 * base64url. The form checks the MAC and the age before it asks any service, so a made-up link
 * costs no database read; the application id lets the service find the applicant by key. The
 * MAC keys are FORM_LINK_KEYS, a ring of their own that the applications service and the form
 * both hold: new tokens are signed with the first key, and a token signed with any key still in
 * the ring is accepted, so a key rotation leaves issued links working. They open nothing stored:
 * a form that holds them can check links, and make up links that find no applicant (the service
 * finds an applicant by its token's digest).
 */
export class FormLinkTokens {
  constructor(private readonly keys: Buffer[]) {
    if (keys.length === 0) throw new Error('form link tokens need at least one key');
  }

  /** The tokens of FORM_LINK_KEYS, `id:base64key` entries of 32-byte HMAC keys. */
  static fromKeyRing(formLinkKeys: string): FormLinkTokens {
    return new FormLinkTokens(parseKeyRing('FORM_LINK_KEYS', formLinkKeys).map(({ key }) => key));
  }

  /** A new token for an applicant of application `applicationId`, issued at `now`. */
  issue(applicationId: number, now = new Date()): string {
    const bytes = Buffer.alloc(TOKEN_BYTES);
    bytes[0] = FORMAT;
    bytes.writeUIntBE(applicationId, 1, APPLICATION_ID_BYTES);
    bytes.writeUInt32BE(Math.floor(now.getTime() / 1000), 1 + APPLICATION_ID_BYTES);
    randomBytes(RANDOM_BYTES).copy(bytes, 1 + APPLICATION_ID_BYTES + ISSUED_BYTES);
    this.mac(this.keys[0], bytes).copy(bytes, SIGNED_BYTES);
    return bytes.toString('base64url');
  }

  /** What `token` says when it was made with one of the ring's keys; null for anything else. */
  read(token: string): FormLinkClaims | null {
    if (!FORM_LINK_TOKEN.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== TOKEN_BYTES || bytes[0] !== FORMAT) return null;
    const given = bytes.subarray(SIGNED_BYTES);
    if (!this.keys.some((key) => timingSafeEqual(this.mac(key, bytes), given))) return null;
    const applicationId = bytes.readUIntBE(1, APPLICATION_ID_BYTES);
    if (applicationId < 1) return null;
    return { applicationId, issuedAt: new Date(bytes.readUInt32BE(1 + APPLICATION_ID_BYTES) * 1000) };
  }

  private mac(key: Buffer, token: Buffer): Buffer {
    return createHmac('sha256', key).update(token.subarray(0, SIGNED_BYTES)).digest().subarray(0, MAC_BYTES);
  }
}

/**
 * FORM_LINK_KEYS entries (same ids) holding the MAC keys that links were signed with before
 * FORM_LINK_KEYS existed, when they were derived from FIELD_ENCRYPTION_KEYS: listed after a new
 * key, they keep the links issued then working. `node scripts/form-keys.js link-keys` prints the
 * same from the environment.
 */
export function legacyFormLinkKeys(fieldEncryptionKeys: string): string {
  return parseFieldEncryptionKeys(fieldEncryptionKeys)
    .map(({ id, key }) => {
      const macKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'applicant form link tokens', 32));
      return `${id}:${macKey.toString('base64')}`;
    })
    .join(',');
}
