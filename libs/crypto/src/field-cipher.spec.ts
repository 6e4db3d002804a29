import { createDecipheriv, randomBytes } from 'node:crypto';
import { FieldCipher, parseFieldEncryptionKeys, SealedValueError } from './field-cipher';

const keyText = () => randomBytes(32).toString('base64');
const OLD = `old:${keyText()}`;
const NEW = `new:${keyText()}`;
const SSN = '078051120';
const CONTEXT = 'applicant.id_number';

function openFailure(cipher: FieldCipher, sealed: unknown, context = CONTEXT): SealedValueError {
  try {
    cipher.open(sealed, context);
  } catch (error) {
    expect(error).toBeInstanceOf(SealedValueError);
    return error as SealedValueError;
  }
  throw new Error('the sealed value was opened');
}

/** base64 of the same bytes with one bit flipped. */
function flipBit(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[0] ^= 0x01;
  return bytes.toString('base64');
}

describe('FieldCipher', () => {
  it('opens what it sealed', () => {
    const cipher = new FieldCipher(OLD);
    for (const plaintext of [SSN, '1985-12-10', '', 'ünïcødé ✓ 𝄞']) {
      expect(cipher.open(cipher.seal(plaintext, CONTEXT), CONTEXT)).toBe(plaintext);
    }
  });

  it('seals with AES-256-GCM under the named key: the value decrypts with the key alone', () => {
    const [{ key }] = parseFieldEncryptionKeys(OLD);
    const sealed = new FieldCipher(OLD).seal(SSN, CONTEXT);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce, 'base64'));
    decipher.setAAD(Buffer.from(CONTEXT));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const plaintext = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
    expect(plaintext.toString()).toBe(SSN);
    expect(sealed.key_id).toBe('old');
  });

  it('holds nothing of the plaintext in the sealed value', () => {
    const sealed = new FieldCipher(OLD).seal(SSN, CONTEXT);
    expect(Object.keys(sealed)).toEqual(['key_id', 'nonce', 'ciphertext', 'tag']);
    const text = JSON.stringify(sealed);
    expect(text).not.toContain(SSN);
    expect(text).not.toContain(Buffer.from(SSN).toString('base64'));
  });

  it('uses a fresh nonce for every value, so equal plaintexts never look alike', () => {
    const cipher = new FieldCipher(OLD);
    const sealed = Array.from({ length: 200 }, () => cipher.seal(SSN, CONTEXT));
    expect(new Set(sealed.map((s) => s.nonce)).size).toBe(200);
    expect(new Set(sealed.map((s) => s.ciphertext + s.tag)).size).toBe(200);
    for (const s of sealed) expect(Buffer.from(s.nonce, 'base64')).toHaveLength(12);
  });

  describe('detects tampering', () => {
    const cipher = new FieldCipher(OLD);
    const sealed = cipher.seal(SSN, CONTEXT);

    it.each([
      ['the ciphertext', { ...sealed, ciphertext: flipBit(sealed.ciphertext) }],
      ['the tag', { ...sealed, tag: flipBit(sealed.tag) }],
      ['the nonce', { ...sealed, nonce: flipBit(sealed.nonce) }],
      [
        'a truncated ciphertext',
        { ...sealed, ciphertext: Buffer.from(sealed.ciphertext, 'base64').subarray(1).toString('base64') },
      ],
    ])('in %s', (_label, tampered) => {
      expect(openFailure(cipher, tampered).message).toBe('sealed value failed authentication');
    });

    it('when a value is opened as another field than it was sealed for', () => {
      expect(openFailure(cipher, sealed, 'applicant.dob').message).toBe('sealed value failed authentication');
    });

    it.each([
      ['a short tag', { ...sealed, tag: sealed.tag.slice(0, 8) }],
      ['a short nonce', { ...sealed, nonce: 'AAAA' }],
    ])('and refuses %s', (_label, malformed) => {
      expect(openFailure(cipher, malformed).message).toBe('malformed sealed value');
    });

    it.each([[SSN], [null], [{ key_id: 'old' }], [{ ...sealed, tag: 7 }]])(
      'and refuses %j, which is no sealed value',
      (value) => {
        expect(openFailure(cipher, value).message).toBe('not a sealed value');
      },
    );
  });

  describe('key rotation', () => {
    it('seals with the first key and opens with any key of the ring', () => {
      const before = new FieldCipher(OLD).seal(SSN, CONTEXT);
      const rotated = new FieldCipher(`${NEW},${OLD}`);
      const after = rotated.seal(SSN, CONTEXT);

      expect(before.key_id).toBe('old');
      expect(after.key_id).toBe('new');
      expect(rotated.currentKeyId).toBe('new');
      expect(rotated.open(before, CONTEXT)).toBe(SSN);
      expect(rotated.open(after, CONTEXT)).toBe(SSN);
    });

    it('cannot open a value once its key has left the ring', () => {
      const before = new FieldCipher(OLD).seal(SSN, CONTEXT);
      expect(openFailure(new FieldCipher(NEW), before).message).toBe('sealed with unknown key id "old"');
    });

    it('refuses a value under a known key id but another key', () => {
      const impostor = new FieldCipher(`old:${keyText()}`).seal(SSN, CONTEXT);
      expect(openFailure(new FieldCipher(OLD), impostor).message).toBe('sealed value failed authentication');
    });
  });
});

describe('parseFieldEncryptionKeys', () => {
  it('reads id:base64key entries in order', () => {
    const keys = parseFieldEncryptionKeys(`${NEW},${OLD}`);
    expect(keys.map((k) => k.id)).toEqual(['new', 'old']);
    expect(keys.map((k) => k.key.length)).toEqual([32, 32]);
  });

  it.each([
    ['unset', undefined, 'FIELD_ENCRYPTION_KEYS is not set'],
    ['empty', '', 'FIELD_ENCRYPTION_KEYS is not set'],
    ['a key without an id', keyText(), 'entry 1 must start with a key id'],
    ['an id with a space', `my key:${keyText()}`, 'entry 1 must start with a key id'],
    ['a 16-byte key', `k1:${randomBytes(16).toString('base64')}`, 'entry 1 (key id k1) must be 32 bytes'],
    ['a key that is not base64', `k1:${'!'.repeat(44)}`, 'entry 1 (key id k1) must be 32 bytes'],
    ['an empty second entry', `k1:${keyText()},`, 'entry 2 must start with a key id'],
    ['an id given twice', `k1:${keyText()},k1:${keyText()}`, 'entry 2: key id k1 is given twice'],
  ])('refuses %s, naming the variable', (_label, text, message) => {
    expect(() => parseFieldEncryptionKeys(text)).toThrow('FIELD_ENCRYPTION_KEYS');
    expect(() => parseFieldEncryptionKeys(text)).toThrow(message);
  });

  it('never quotes key material in its refusals', () => {
    const material = randomBytes(16).toString('base64');
    const refusal = (() => {
      try {
        parseFieldEncryptionKeys(`k1:${material},k2:${keyText()}`);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('the keys were accepted');
    })();
    expect(refusal).toContain('k1');
    expect(refusal).not.toContain(material);
  });
});
