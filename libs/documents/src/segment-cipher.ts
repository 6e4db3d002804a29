import { createCipheriv, createDecipheriv } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';

/** Plaintext bytes per sealed segment: small enough to hold, large enough that tags cost little. */
export const SEGMENT_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';

/**
 * A segment's nonce: the file's random prefix (4 bytes) and the segment's index (8 bytes). Each
 * file has a data key of its own, so the index alone would do; the prefix costs nothing.
 */
function nonce(prefix: Buffer, index: number): Buffer {
  const bytes = Buffer.alloc(12);
  prefix.copy(bytes, 0, 0, 4);
  bytes.writeBigUInt64BE(BigInt(index), 4);
  return bytes;
}

/** Associated data: whether the segment is the last, so that a file cut at a segment's end does not open. */
const LAST = Buffer.from([1]);
const NOT_LAST = Buffer.from([0]);

/** Why stored bytes do not open: tampered with, cut short, or another file's. */
export class SealedDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedDocumentError';
  }
}

/** A file's segments in order, under its data key: each the next nonce. */
abstract class SegmentStream extends Transform {
  private index = 0;

  constructor(
    protected readonly key: Buffer,
    private readonly prefix: Buffer,
  ) {
    super();
  }

  protected nextNonce(): Buffer {
    return nonce(this.prefix, this.index++);
  }
}

/**
 * Encrypts a stream as a series of AES-256-GCM segments (the STREAM construction): each
 * SEGMENT_BYTES of plaintext becomes its ciphertext and its 16-byte tag, the last one marked
 * last. Holds one segment at a time, so a file of any size is never whole in memory.
 */
export class SegmentEncryptor extends SegmentStream {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // A full segment goes out only once a byte after it is known: the last one must say it is.
    if (this.pendingBytes > SEGMENT_BYTES) {
      let buffered = Buffer.concat(this.pending);
      while (buffered.length > SEGMENT_BYTES) {
        this.push(this.seal(buffered.subarray(0, SEGMENT_BYTES), false));
        buffered = buffered.subarray(SEGMENT_BYTES);
      }
      this.pending = [buffered];
      this.pendingBytes = buffered.length;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    done(null, this.seal(Buffer.concat(this.pending), true));
  }

  private seal(plaintext: Buffer, last: boolean): Buffer {
    const cipher = createCipheriv(ALGORITHM, this.key, this.nextNonce(), { authTagLength: TAG_BYTES });
    cipher.setAAD(last ? LAST : NOT_LAST);
    return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  }
}

/** Opens what SegmentEncryptor made; fails the stream on any segment that does not authenticate. */
export class SegmentDecryptor extends SegmentStream {
  private pending: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const sealedSegment = SEGMENT_BYTES + TAG_BYTES;
    try {
      while (this.pending.length > sealedSegment) {
        this.push(this.open(this.pending.subarray(0, sealedSegment), false));
        this.pending = this.pending.subarray(sealedSegment);
      }
    } catch (error) {
      return done(error as Error);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    try {
      done(null, this.open(this.pending, true));
    } catch (error) {
      done(error as Error);
    }
  }

  private open(sealed: Buffer, last: boolean): Buffer {
    if (sealed.length < TAG_BYTES) throw new SealedDocumentError('the stored document is cut short');
    const decipher = createDecipheriv(ALGORITHM, this.key, this.nextNonce(), { authTagLength: TAG_BYTES });
    decipher.setAAD(last ? LAST : NOT_LAST);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SealedDocumentError('the stored document failed authentication');
    }
  }
}
