import { createHash, Hash } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';
import {
  DOCUMENT_LIMITS,
  DocumentContentType,
  DocumentLimits,
  DocumentRefusal,
  imageSize,
  imageSizeRefusal,
  sniffContentType,
} from './document-types';

/** What an upload turned out to be, once it passed through whole. */
export interface InspectedDocument {
  content_type: DocumentContentType;
  size: number;
  /** Hex SHA-256 of the bytes as uploaded. */
  sha256: string;
}

/**
 * Passes an upload through unchanged while it checks it, holding back only its first bytes
 * until they show its type (and an image's size): what it is not, or too big, fails the stream
 * with a DocumentRefusal before anything past those first bytes moves on. Never holds more than
 * `maxHeadBytes` of the file.
 */
export class DocumentInspector extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  private size = 0;
  private type: DocumentContentType | null = null;
  private decided = false;
  private inspected: InspectedDocument | null = null;

  constructor(private readonly limits: DocumentLimits = DOCUMENT_LIMITS) {
    super();
  }

  /** What passed through; only once the stream has finished. */
  get result(): InspectedDocument {
    if (!this.inspected) throw new Error('the upload has not been read to its end');
    return this.inspected;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limits.maxBytes) return done(tooLarge(this.limits));
    this.hash.update(chunk);
    if (this.decided) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    const refusal = this.decide(false);
    if (refusal) return done(refusal);
    if (this.decided) this.release();
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.size === 0) return done(new DocumentRefusal('empty', 'The file is empty.'));
    if (!this.decided) {
      const refusal = this.decide(true);
      if (refusal) return done(refusal);
      this.release();
    }
    this.inspected = { content_type: this.type!, size: this.size, sha256: this.hash.digest('hex') };
    done();
  }

  /** Decides from the head once it can (or must, at the end): sets `decided`, or returns the refusal. */
  private decide(atEnd: boolean): DocumentRefusal | null {
    const head = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
    this.head = [head];
    const mustDecide = atEnd || this.headBytes >= this.limits.maxHeadBytes;
    const type = sniffContentType(head);
    if (type === null || (type === undefined && mustDecide)) return unsupported();
    if (type === undefined) return null;
    this.type = type;
    if (type !== 'application/pdf') {
      const size = imageSize(type, head.subarray(0, this.limits.maxHeadBytes));
      if (size === undefined && !mustDecide) return null;
      if (!size) return new DocumentRefusal('unreadable_image', 'The image is damaged: its size cannot be read.');
      const refusal = imageSizeRefusal(size, this.limits);
      if (refusal) return refusal;
    }
    this.decided = true;
    return null;
  }

  private release(): void {
    for (const chunk of this.head) this.push(chunk);
    this.head = [];
  }
}

function unsupported(): DocumentRefusal {
  return new DocumentRefusal(
    'unsupported_type',
    'The file is not a PDF, JPEG or PNG (whatever its name says): upload one of those.',
  );
}

function tooLarge(limits: DocumentLimits): DocumentRefusal {
  return new DocumentRefusal(
    'too_large',
    `The file is larger than ${limits.maxBytes / (1024 * 1024)} MB: upload a smaller scan or photo.`,
  );
}
