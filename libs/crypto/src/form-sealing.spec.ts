import { randomBytes } from 'node:crypto';
import { FieldCipher, SealedValueError } from './field-cipher';
import { FormOpener, formSealingPublicKey, FormSealer } from './form-sealing';

const keyText = () => randomBytes(32).toString('base64');
const OLD = `old:${keyText()}`;
const NEW = `new:${keyText()}`;
const SSN = '078051120';
const CONTEXT = 'applicant.id_number';
const OWNER = 'form:abc message:m-1';

const sealerFor = (privateKeys: string) => new FormSealer(formSealingPublicKey(privateKeys));

function openFailure(open: () => unknown): string {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(SealedValueError);
    return (error as Error).message;
  }
  throw new Error('the sealed value was opened');
}

/** base64 of the same bytes with one bit flipped. */
function flipBit(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[0] ^= 0x01;
  return bytes.toString('base64');
}

describe('FormSealer and FormOpener', () => {
  it('open with the private key what was sealed to its public key', () => {
    const sealer = sealerFor(OLD);
    const opener = new FormOpener(OLD);
    for (const plaintext of [SSN, '1985-12-10', '', 'ünïcødé ✓ 𝄞', randomBytes(32).toString('base64')]) {
      expect(opener.open(sealer.seal(plaintext, CONTEXT, OWNER), CONTEXT, OWNER)).toBe(plaintext);
    }
  });

  it('seal each value with a one-time key pair and nonce, holding nothing of the plaintext', () => {
    const sealer = sealerFor(OLD);
    const sealed = Array.from({ length: 50 }, () => sealer.seal(SSN, CONTEXT, OWNER));
    expect(new Set(sealed.map((value) => value.ephemeral_key)).size).toBe(50);
    expect(new Set(sealed.map((value) => value.ciphertext + value.tag)).size).toBe(50);
    expect(Object.keys(sealed[0])).toEqual(['v', 'key_id', 'ephemeral_key', 'nonce', 'ciphertext', 'tag']);
    expect(sealed[0]).toMatchObject({ v: 3, key_id: 'old' });
    expect(JSON.stringify(sealed[0])).not.toContain(SSN);
  });

  it('cannot be opened with what the sealer holds: its public key read as a private one opens nothing', () => {
    const publicKey = formSealingPublicKey(OLD);
    const sealed = new FormSealer(publicKey).seal(SSN, CONTEXT, OWNER);
    expect(openFailure(() => new FormOpener(publicKey).open(sealed, CONTEXT, OWNER))).toBe('sealed value failed authentication');
    // Nor as a FieldCipher key of the same id.
    expect(openFailure(() => new FieldCipher(publicKey).open(sealed, CONTEXT, OWNER))).toBe('sealed in an unknown format');
  });

  it('refuses a value sealed to a key it does not hold, and to another key under the same id', () => {
    const sealed = sealerFor(OLD).seal(SSN, CONTEXT, OWNER);
    expect(openFailure(() => new FormOpener(NEW).open(sealed, CONTEXT, OWNER))).toBe('sealed to unknown key id "old"');
    const impostor = `old:${keyText()}`;
    expect(openFailure(() => new FormOpener(impostor).open(sealed, CONTEXT, OWNER))).toBe('sealed value failed authentication');
  });

  it.each(['ciphertext', 'tag', 'nonce', 'ephemeral_key'] as const)('refuses a value whose %s was changed', (part) => {
    const sealed = sealerFor(OLD).seal(SSN, CONTEXT, OWNER);
    const tampered = { ...sealed, [part]: flipBit(sealed[part]) };
    expect(openFailure(() => new FormOpener(OLD).open(tampered, CONTEXT, OWNER))).toBe('sealed value failed authentication');
  });

  it('refuses a value opened for another field or owner than it was sealed for', () => {
    const sealed = sealerFor(OLD).seal(SSN, CONTEXT, OWNER);
    const opener = new FormOpener(OLD);
    expect(openFailure(() => opener.open(sealed, 'applicant.dob', OWNER))).toBe('sealed value failed authentication');
    expect(openFailure(() => opener.open(sealed, CONTEXT, 'form:abc message:m-2'))).toBe('sealed value failed authentication');
    expect(openFailure(() => opener.open(sealed, CONTEXT, 'form:abd message:m-1'))).toBe('sealed value failed authentication');
  });

  it('refuses a FieldCipher value, and FieldCipher refuses its values, whatever keys each holds', () => {
    // The same key material and id on both sides: only the format tells them apart, and does.
    const symmetric = new FieldCipher(OLD).seal(SSN, CONTEXT, OWNER);
    expect(openFailure(() => new FormOpener(OLD).open(symmetric, CONTEXT, OWNER))).toBe(
      'not a value sealed to a form sealing key',
    );
    const sealed = sealerFor(OLD).seal(SSN, CONTEXT, OWNER);
    expect(openFailure(() => new FieldCipher(OLD).open(sealed, CONTEXT, OWNER))).toBe('sealed in an unknown format');
  });

  it('refuses what is not a sealed value at all', () => {
    const opener = new FormOpener(OLD);
    for (const value of [null, SSN, {}, { v: 3, key_id: 'old' }, { ...sealerFor(OLD).seal(SSN, CONTEXT, OWNER), v: 2 }]) {
      expect(openFailure(() => opener.open(value, CONTEXT, OWNER))).toBe('not a value sealed to a form sealing key');
    }
    const short = { ...sealerFor(OLD).seal(SSN, CONTEXT, OWNER), ephemeral_key: randomBytes(31).toString('base64') };
    expect(openFailure(() => opener.open(short, CONTEXT, OWNER))).toBe('malformed sealed value');
  });

  it('rotate: a new key pair put first is sealed to, and values sealed to the old one still open', () => {
    const before = sealerFor(OLD).seal(SSN, CONTEXT, OWNER);
    const rotated = `${NEW},${OLD}`;
    const after = sealerFor(rotated).seal(SSN, CONTEXT, OWNER);
    expect(after.key_id).toBe('new');
    const opener = new FormOpener(rotated);
    expect([opener.open(before, CONTEXT, OWNER), opener.open(after, CONTEXT, OWNER)]).toEqual([SSN, SSN]);
    expect(openFailure(() => new FormOpener(OLD).open(after, CONTEXT, OWNER))).toBe('sealed to unknown key id "new"');
  });

  it('read their keys as the other rings, refusing bad ones by name without quoting them', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => new FormOpener(undefined)).toThrow('FORM_SEALING_KEYS is not set');
    expect(() => new FormOpener(`k1:${short}`)).toThrow('FORM_SEALING_KEYS entry 1 (key id k1) must be 32 bytes');
    expect(() => new FormSealer(undefined)).toThrow('FORM_SEALING_PUBLIC_KEY is not set');
    expect(() => new FormSealer(`a:${keyText()},b:${keyText()}`)).toThrow('FORM_SEALING_PUBLIC_KEY must be a single entry');
    try {
      new FormSealer(`k1:${short}`);
      throw new Error('accepted');
    } catch (error) {
      expect((error as Error).message).toContain('FORM_SEALING_PUBLIC_KEY entry 1 (key id k1) must be 32 bytes');
      expect((error as Error).message).not.toContain(short);
    }
  });
});
