import { FORM_TOKEN, formTokenDigest } from './form-token-digest';
import { FormLinkTokens, legacyFormLinkKeys } from './form-link-tokens';

const key = (fill: number) => `k${fill}:${Buffer.alloc(32, fill).toString('base64')}`;

describe('applicant form link tokens', () => {
  const tokens = FormLinkTokens.fromKeyRing(key(1));

  it('name their application and issue time, from the first id to the largest the token holds', () => {
    const issued = new Date('2026-11-25T10:00:00Z');
    for (const id of [1, 42, 2 ** 32 + 5, 2 ** 48 - 1]) {
      const token = tokens.issue(id, issued);
      expect(token).toHaveLength(60);
      expect(tokens.read(token)).toEqual({ applicationId: id, issuedAt: issued });
    }
  });

  it('differ each time for the same application, and their digests look like every digest', () => {
    const made = new Set(Array.from({ length: 100 }, () => tokens.issue(7)));
    expect(made.size).toBe(100);
    for (const token of made) expect(formTokenDigest(token)).toMatch(FORM_TOKEN);
  });

  it('are refused when any byte was changed, or when made with a key the ring does not hold', () => {
    const token = tokens.issue(9);
    const bytes = Buffer.from(token, 'base64url');
    for (const at of [0, 1, 6, 7, 12, 30, 44]) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 1;
      expect(tokens.read(changed.toString('base64url'))).toBeNull();
    }
    expect(FormLinkTokens.fromKeyRing(key(2)).read(token)).toBeNull();
  });

  it('are refused in any shape but their own: the 43- and 44-character tokens of before, and junk', () => {
    for (const token of ['A'.repeat(43), 'A'.repeat(44), 'A'.repeat(60), `${tokens.issue(3).slice(0, 59)}!`, '']) {
      expect(tokens.read(token)).toBeNull();
    }
  });

  it('stay readable after a rotation while their key is still in the ring', () => {
    const token = tokens.issue(11);
    const rotated = FormLinkTokens.fromKeyRing(`${key(2)},${key(1)}`);
    expect(rotated.read(token)?.applicationId).toBe(11);
    expect(tokens.read(rotated.issue(12))).toBeNull();
  });

  it('read links signed before FORM_LINK_KEYS existed once the keys legacyFormLinkKeys derives are listed', () => {
    // Issued by the code of before, with its MAC key derived from this FIELD_ENCRYPTION_KEYS.
    const fieldKeys = `t1:${Buffer.alloc(32, 5).toString('base64')}`;
    const before = 'AgAAAAAQkmsADBBBwEMjIzz3XeuwzHyLBzMzvLNHRJ1JfaoFDV1F8mfnCc6X';
    const upgraded = FormLinkTokens.fromKeyRing(`${key(2)},${legacyFormLinkKeys(fieldKeys)}`);
    expect(upgraded.read(before)).toEqual({ applicationId: 4242, issuedAt: new Date('2026-11-20T09:00:00Z') });
    expect(FormLinkTokens.fromKeyRing(key(2)).read(before)).toBeNull();
    expect(FormLinkTokens.fromKeyRing(fieldKeys).read(before)).toBeNull();
    expect(legacyFormLinkKeys(fieldKeys)).toMatch(/^t1:[A-Za-z0-9+/]{43}=$/);
  });

  it('refuse a FORM_LINK_KEYS that is not a ring of 32-byte keys, naming it', () => {
    expect(() => FormLinkTokens.fromKeyRing('')).toThrow('FORM_LINK_KEYS is not set');
    expect(() => FormLinkTokens.fromKeyRing('k1:c2hvcnQ=')).toThrow('FORM_LINK_KEYS entry 1 (key id k1) must be 32 bytes');
  });
});
