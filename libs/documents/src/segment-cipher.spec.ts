import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { FieldCipher, FormOpener, formSealingPublicKey, FormSealer } from '@app/crypto';
import { openFormSealedDataKey, sealDataKeyToForm, unwrapDataKey, wrapDataKey } from './document-vault';
import { SEGMENT_BYTES, SealedDocumentError, SegmentDecryptor, SegmentEncryptor } from './segment-cipher';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const key = randomBytes(32);
const prefix = randomBytes(4);
const seal = (plaintext: Buffer) => collect(Readable.from([plaintext]).pipe(new SegmentEncryptor(key, prefix)));
const open = (sealed: Buffer, withKey = key) => collect(Readable.from([sealed]).pipe(new SegmentDecryptor(withKey, prefix)));

describe('SegmentEncryptor and SegmentDecryptor', () => {
  it.each([0, 1, SEGMENT_BYTES - 1, SEGMENT_BYTES, SEGMENT_BYTES + 1, 3 * SEGMENT_BYTES + 17])(
    'round-trips %i bytes, and the stored bytes are not the plaintext',
    async (size) => {
      const plaintext = randomBytes(size);
      const sealed = await seal(plaintext);
      expect(sealed.length).toBe(
        size + 16 * (Math.floor(size / SEGMENT_BYTES) + (size % SEGMENT_BYTES === 0 && size > 0 ? 0 : 1)),
      );
      // A byte or two of plaintext turns up in random ciphertext by chance; 16 do not.
      if (size >= 16) expect(sealed.includes(plaintext.subarray(0, Math.min(size, 64)))).toBe(false);
      expect((await open(sealed)).equals(plaintext)).toBe(true);
    },
  );

  it('refuses a flipped bit, a file cut at a segment boundary, and another key', async () => {
    const plaintext = randomBytes(2 * SEGMENT_BYTES + 100);
    const sealed = await seal(plaintext);
    const flipped = Buffer.from(sealed);
    flipped[SEGMENT_BYTES + 40] ^= 1;
    await expect(open(flipped)).rejects.toBeInstanceOf(SealedDocumentError);
    await expect(open(sealed.subarray(0, 2 * (SEGMENT_BYTES + 16)))).rejects.toBeInstanceOf(SealedDocumentError);
    await expect(open(sealed, randomBytes(32))).rejects.toBeInstanceOf(SealedDocumentError);
  });
});

describe('data keys', () => {
  const ring = (...ids: string[]) => ids.map((id) => `${id}:${Buffer.alloc(32, id).toString('base64')}`).join(',');
  const owner = { clientId: 1, applicantId: 7 };

  it('opens a key wrapped before a new key was put first (rotation)', () => {
    const dataKey = randomBytes(32);
    const wrapped = wrapDataKey(new FieldCipher(ring('old')), dataKey, owner, 'f1');
    const rotated = new FieldCipher(ring('new', 'old'));
    expect(unwrapDataKey(rotated, wrapped, owner, 'f1').equals(dataKey)).toBe(true);
    expect(wrapDataKey(rotated, dataKey, owner, 'f1').key_id).toBe('new');
  });

  it('does not open for another applicant, client or file', () => {
    const cipher = new FieldCipher(ring('k'));
    const wrapped = wrapDataKey(cipher, randomBytes(32), owner, 'f1');
    expect(() => unwrapDataKey(cipher, wrapped, { ...owner, applicantId: 8 }, 'f1')).toThrow();
    expect(() => unwrapDataKey(cipher, wrapped, { ...owner, clientId: 2 }, 'f1')).toThrow();
    expect(() => unwrapDataKey(cipher, wrapped, owner, 'f2')).toThrow();
  });

  it('sealed by the form open with the private key alone, for their owner and file, and never as a ring key', () => {
    const privateKeys = ring('s1');
    const sealer = new FormSealer(formSealingPublicKey(privateKeys));
    const opener = new FormOpener(privateKeys);
    const dataKey = randomBytes(32);
    const sealed = sealDataKeyToForm(sealer, dataKey, owner, 'f1');
    expect(openFormSealedDataKey(opener, sealed, owner, 'f1').equals(dataKey)).toBe(true);
    expect(() => openFormSealedDataKey(opener, sealed, { ...owner, applicantId: 8 }, 'f1')).toThrow();
    expect(() => openFormSealedDataKey(opener, sealed, owner, 'f2')).toThrow();
    // Neither the form's public key nor a field key ring of the same id opens it.
    expect(() => openFormSealedDataKey(new FormOpener(formSealingPublicKey(privateKeys)), sealed, owner, 'f1')).toThrow();
    expect(() => unwrapDataKey(new FieldCipher(privateKeys), sealed, owner, 'f1')).toThrow('sealed in an unknown format');
  });
});
