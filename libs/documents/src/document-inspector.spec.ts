import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DocumentInspector } from './document-inspector';
import { DOCUMENT_LIMITS, DocumentRefusal } from './document-types';
import { jpegOf, pngOf } from './documents.testing';

/** Runs `bytes` (in `chunkBytes` pieces) through an inspector; what came out, or the refusal. */
async function inspect(bytes: Buffer, limits = DOCUMENT_LIMITS, chunkBytes = 1000) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) pieces.push(bytes.subarray(at, at + chunkBytes));
  const out: Buffer[] = [];
  const inspector = new DocumentInspector(limits);
  await pipeline(
    Readable.from(pieces),
    inspector,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return { result: inspector.result, out: Buffer.concat(out) };
}

async function refusal(bytes: Buffer, limits = DOCUMENT_LIMITS): Promise<DocumentRefusal> {
  const error = await inspect(bytes, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentRefusal);
  return error as DocumentRefusal;
}

describe('DocumentInspector', () => {
  it('passes a PDF through unchanged, with its type, size and SHA-256', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(50_000)]);
    const { result, out } = await inspect(pdf);
    expect(out.equals(pdf)).toBe(true);
    expect(result).toEqual({
      content_type: 'application/pdf',
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
  });

  it('takes images whose size comes in a later piece', async () => {
    expect((await inspect(pngOf(800, 600), DOCUMENT_LIMITS, 3)).result.content_type).toBe('image/png');
    expect((await inspect(jpegOf(800, 600, 4), DOCUMENT_LIMITS, 5)).result.content_type).toBe('image/jpeg');
  });

  it('refuses an executable, a text file and an empty file', async () => {
    expect((await refusal(Buffer.concat([Buffer.from('MZ'), randomBytes(4000)]))).code).toBe('unsupported_type');
    expect((await refusal(Buffer.from('hello, I am a PNG'))).code).toBe('unsupported_type');
    expect((await refusal(Buffer.alloc(0))).code).toBe('empty');
  });

  it('refuses one byte past the limit and takes the limit itself', async () => {
    const limits = { ...DOCUMENT_LIMITS, maxBytes: 20_000 };
    const at = (size: number) => Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(size - 5, 0x20)]);
    expect((await inspect(at(20_000), limits)).result.size).toBe(20_000);
    expect((await refusal(at(20_001), limits)).code).toBe('too_large');
  });

  it('refuses an image of enormous declared size before passing any of it on', async () => {
    expect((await refusal(pngOf(100_000, 100_000))).code).toBe('image_too_large');
    expect((await refusal(jpegOf(60_000, 60_000))).code).toBe('image_too_large');
  });

  it('refuses an image whose size is not found within the first bytes it holds', async () => {
    const limits = { ...DOCUMENT_LIMITS, maxHeadBytes: 100 };
    expect((await refusal(jpegOf(10, 10, 10), limits)).code).toBe('unreadable_image');
  });
});
