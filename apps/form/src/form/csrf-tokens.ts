import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a form page may stay open before its submission is refused. */
export const CSRF_TOKEN_LIFETIME_MS = 4 * 60 * 60 * 1000;

/**
 * CSRF tokens for the form's pages: `<issued>.<nonce>.<mac>`, the MAC (HMAC-SHA256) binding the
 * nonce and issue time to the one path the page posts to. Any instance of the form can check one
 * (the key is derived from the field encryption key every instance holds), none can be made up,
 * and the applications service takes each nonce once, so a replayed page changes nothing.
 */
export class CsrfTokens {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key for `secret` (a field encryption key): used for nothing but these tokens. */
  static derive(secret: Buffer): CsrfTokens {
    return new CsrfTokens(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'application-form csrf tokens', 32)));
  }

  issue(action: string): string {
    const issued = this.now().toString(36);
    const nonce = randomBytes(16).toString('base64url');
    return `${issued}.${nonce}.${this.mac(action, issued, nonce)}`;
  }

  /** The token's nonce when it was issued here for `action` and has not expired; null otherwise. */
  verify(action: string, token: unknown): string | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const [issued, nonce, mac, extra] = token.split('.');
    if (extra !== undefined || !issued || !nonce || !mac || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return null;
    const expected = Buffer.from(this.mac(action, issued, nonce));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const age = this.now() - parseInt(issued, 36);
    return age >= 0 && age <= CSRF_TOKEN_LIFETIME_MS ? nonce : null;
  }

  private mac(action: string, issued: string, nonce: string): string {
    return createHmac('sha256', this.key).update(`${action}\n${issued}\n${nonce}`).digest('base64url');
  }
}
