import { randomBytes } from 'node:crypto';
import { CSRF_TOKEN_LIFETIME_MS, CsrfTokens } from './csrf-tokens';

/** A CSRF_KEYS ring of one fresh key, named `id`. */
const ring = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('CsrfTokens', () => {
  let now = Date.UTC(2026, 10, 23, 12);
  const secret = randomBytes(32);
  const tokens = new CsrfTokens(secret, () => now);

  it('accepts a token for the action it was issued for, giving its nonce', () => {
    const token = tokens.issue('/properties/1/apply');
    const nonce = tokens.verify('/properties/1/apply', token);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(token.split('.')[1]).toBe(nonce);
  });

  it('gives every page a nonce of its own', () => {
    expect(tokens.issue('/a')).not.toBe(tokens.issue('/a'));
  });

  it('refuses a token issued for another action (another property, another applicant)', () => {
    const token = tokens.issue('/properties/1/apply');
    expect(tokens.verify('/properties/2/apply', token)).toBeNull();
  });

  it('refuses a token signed with another key, and any change to a token', () => {
    const token = tokens.issue('/a');
    expect(CsrfTokens.fromKeyRing(ring('c9')).verify('/a', token)).toBeNull();
    const [issued, nonce, mac] = token.split('.');
    const otherNonce = randomBytes(16).toString('base64url');
    for (const forged of [
      `${issued}.${otherNonce}.${mac}`,
      `${(parseInt(issued, 36) + 1).toString(36)}.${nonce}.${mac}`,
      `${issued}.${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${token}.x`,
      '',
      'garbage',
    ]) {
      expect(tokens.verify('/a', forged)).toBeNull();
    }
    expect(tokens.verify('/a', undefined)).toBeNull();
    expect(tokens.verify('/a', ['x'])).toBeNull();
  });

  it('refuses a token older than its lifetime', () => {
    const token = tokens.issue('/a');
    now += CSRF_TOKEN_LIFETIME_MS;
    expect(tokens.verify('/a', token)).not.toBeNull();
    now += 1;
    expect(tokens.verify('/a', token)).toBeNull();
  });

  it('derives the same keys on every instance from the same ring', () => {
    const keys = ring('c1');
    const token = CsrfTokens.fromKeyRing(keys).issue('/a');
    expect(CsrfTokens.fromKeyRing(keys).verify('/a', token)).not.toBeNull();
  });

  it('keeps the tokens made under the previous key valid when a new key is put first, until it is dropped', () => {
    const [previous, next] = [ring('old'), ring('new')];
    const before = CsrfTokens.fromKeyRing(previous).issue('/a');
    const rotated = CsrfTokens.fromKeyRing(`${next},${previous}`);
    expect(rotated.verify('/a', before)).not.toBeNull();
    const after = rotated.issue('/a');
    expect(CsrfTokens.fromKeyRing(next).verify('/a', after)).not.toBeNull();
    expect(CsrfTokens.fromKeyRing(previous).verify('/a', after)).toBeNull();
    expect(CsrfTokens.fromKeyRing(next).verify('/a', before)).toBeNull();
  });
});
