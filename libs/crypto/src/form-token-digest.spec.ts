import {
  APPLICANT_FORM_TOKEN,
  FORM_TOKEN,
  formTokenApplication,
  formTokenDigest,
  newApplicantFormToken,
} from './form-token-digest';

describe('applicant form tokens', () => {
  it('name their application, from the first id to the largest safe one', () => {
    for (const id of [1, 42, 2 ** 32 + 5, 2 ** 48 - 1]) {
      const token = newApplicantFormToken(id);
      expect(token).toMatch(APPLICANT_FORM_TOKEN);
      expect(token).toHaveLength(44);
      expect(formTokenApplication(token)).toBe(id);
    }
  });

  it('differ each time for the same application, and their digests look like every digest', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newApplicantFormToken(7)));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(formTokenDigest(token)).toMatch(FORM_TOKEN);
  });

  it('name none when made before tokens named their application, or not by us', () => {
    const named = newApplicantFormToken(9);
    const otherFormat = `Z${named.slice(1)}`;
    const zero = Buffer.alloc(33);
    zero[0] = 1;
    for (const token of ['A'.repeat(43), otherFormat, zero.toString('base64url'), `${named.slice(0, 43)}`]) {
      expect(formTokenApplication(token)).toBeNull();
    }
  });
});
