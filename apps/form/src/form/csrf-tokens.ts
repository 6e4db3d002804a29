import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseKeyRing } from '@app/config';

/** How long a form page may stay open before its submission is refused. */
export const CSRF_TOKEN_LIFETIME_MS = 4 * 60 * 60 * 1000;

/**
 * CSRF tokens for the form's pages: `<issued>.<nonce>.<mac>`, the MAC (HMAC-SHA256) binding the
 * nonce and issue time to the one path the page posts to. Any instance of the form can check one
 * (every instance holds the CSRF_KEYS ring), none can be made up, and the applications service
 * takes each nonce once, so a replayed page changes nothing. The ring's first key signs; a token
 * signed by any key of the ring is accepted, so a new key put first leaves open pages working.
 */
export class CsrfTokens {
  private readonly keys: Buffer[];

  constructor(
    keys: Buffer | Buffer[],
    private readonly now: () => number = Date.now,
  ) {
    this.keys = Array.isArray(keys) ? keys : [keys];
  }

  /** The tokens of the CSRF_KEYS ring `text` (validated at boot), each key used for nothing else. */
  static fromKeyRing(text: string, now: () => number = Date.now): CsrfTokens {
    return new CsrfTokens(
      parseKeyRing('CSRF_KEYS', text).map(({ key }) =>
        Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'application-form csrf tokens', 32)),
      ),
      now,
    );
  }

  issue(action: string): string {
    const issued = this.now().toString(36);
    const nonce = randomBytes(16).toString('base64url');
    return `${issued}.${nonce}.${this.mac(this.keys[0], action, issued, nonce)}`;
  }

  /** The token's nonce when it was issued here for `action` and has not expired; null otherwise. */
  verify(action: string, token: unknown): string | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const [issued, nonce, mac, extra] = token.split('.');
    if (extra !== undefined || !issued || !nonce || !mac || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return null;
    const given = Buffer.from(mac);
    const signed = this.keys.some((key) => {
      const expected = Buffer.from(this.mac(key, action, issued, nonce));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!signed) return null;
    const age = this.now() - parseInt(issued, 36);
    return age >= 0 && age <= CSRF_TOKEN_LIFETIME_MS ? nonce : null;
  }

  private mac(key: Buffer, action: string, issued: string, nonce: string): string {
    return createHmac('sha256', key).update(`${action}\n${issued}\n${nonce}`).digest('base64url');
  }
}
