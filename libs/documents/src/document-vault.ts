import { randomBytes } from 'node:crypto';
import { finished, pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import mongoose from 'mongoose';
import { SealedValue } from '@app/contracts';
import { FieldCipher } from '@app/crypto';
import { DocumentInspector, InspectedDocument } from './document-inspector';
import { DOCUMENT_LIMITS, DocumentLimits } from './document-types';
import { SEGMENT_BYTES, SegmentDecryptor, SegmentEncryptor } from './segment-cipher';

const { GridFSBucket, ObjectId } = mongoose.mongo;
type Db = mongoose.mongo.Db;
type GridFSBucketWriteStream = mongoose.mongo.GridFSBucketWriteStream;

/** The GridFS bucket of applicants' documents, in the applications service's database. */
export const DOCUMENTS_BUCKET = 'documents';
/** Bound into each file's wrapped data key: it opens as a document key and nothing else. */
const DATA_KEY_CONTEXT = 'document.data_key';

/** Whose a stored file is: bound into its key, so that it opens for that applicant only. */
export interface DocumentOwner {
  clientId: number;
  applicantId: number;
}

export interface StoredDocument extends InspectedDocument {
  /** The GridFS file id (hex). */
  file_id: string;
}

/** What a stored file carries beside its encrypted chunks: how to open them. */
interface SealedFileMetadata {
  /** The file's data key, sealed with the FIELD_ENCRYPTION_KEYS key ring for its owner. */
  key: SealedValue;
  nonce_prefix: string;
  segment_bytes: number;
}

/** No stored file has that id, or it was not stored for that owner. */
export class DocumentNotStoredError extends Error {
  constructor(fileId: string) {
    super(`no stored document ${fileId.slice(0, 24)}`);
    this.name = 'DocumentNotStoredError';
  }
}

/**
 * Applicants' documents in GridFS, encrypted as they stream in: each file gets a data key of its
 * own, sealed (wrapped) by the key ring's current key, as the SSN is, and bound to its owner and
 * file; the bytes go to the chunks as AES-256-GCM segments. A copy of the database alone opens
 * nothing, and a file stored before a new key was put first still opens while its key is in the
 * ring. An upload that fails its checks or is cut off leaves nothing behind.
 */
export class DocumentVault {
  private readonly bucket: mongoose.mongo.GridFSBucket;

  constructor(
    db: Db,
    private readonly cipher: FieldCipher,
    private readonly limits: DocumentLimits = DOCUMENT_LIMITS,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: DOCUMENTS_BUCKET });
  }

  /** Streams `source` in, checked (DocumentInspector) and encrypted; a refusal or failure stores nothing. */
  async store(source: Readable, owner: DocumentOwner): Promise<StoredDocument> {
    const fileId = new ObjectId();
    const dataKey = randomBytes(32);
    const noncePrefix = randomBytes(4);
    const metadata: SealedFileMetadata = {
      key: wrapDataKey(this.cipher, dataKey, owner, fileId.toHexString()),
      nonce_prefix: noncePrefix.toString('base64'),
      segment_bytes: SEGMENT_BYTES,
    };
    const inspector = new DocumentInspector(this.limits);
    const sink = new BucketSink(this.bucket.openUploadStreamWithId(fileId, fileId.toHexString(), { metadata }));
    try {
      await pipeline(source, inspector, new SegmentEncryptor(dataKey, noncePrefix), sink);
    } catch (error) {
      await finished(sink).catch(() => undefined);
      await this.remove(fileId.toHexString());
      throw error;
    }
    return { file_id: fileId.toHexString(), ...inspector.result };
  }

  /** The file's bytes in clear, as a stream that fails if the stored bytes do not authenticate. */
  async open(fileId: string, owner: DocumentOwner): Promise<Readable> {
    if (!ObjectId.isValid(fileId)) throw new DocumentNotStoredError(fileId);
    const id = new ObjectId(fileId);
    const file = await this.bucket.find({ _id: id }, { limit: 1 }).next();
    if (!file) throw new DocumentNotStoredError(fileId);
    const metadata = file.metadata as SealedFileMetadata;
    const dataKey = unwrapDataKey(this.cipher, metadata.key, owner, fileId);
    const decryptor = new SegmentDecryptor(dataKey, Buffer.from(metadata.nonce_prefix, 'base64'));
    const download = this.bucket.openDownloadStream(id);
    download.once('error', (error) => decryptor.destroy(error));
    return download.pipe(decryptor);
  }

  /** Removes the file and whatever chunks of it were written; nothing when there is none. */
  async remove(fileId: string): Promise<void> {
    const id = new ObjectId(fileId);
    // delete() removes the chunks even when the file's record was never written (a cut-off upload).
    await this.bucket.delete(id).catch(() => undefined);
  }
}

/** A file's data key sealed with the key ring's current key, for its owner and file alone. */
export function wrapDataKey(cipher: FieldCipher, dataKey: Buffer, owner: DocumentOwner, fileId: string): SealedValue {
  return cipher.seal(dataKey.toString('base64'), DATA_KEY_CONTEXT, keyOwner(owner, fileId));
}

/** The data key, with whichever key of the ring sealed it; throws SealedValueError for another owner or file. */
export function unwrapDataKey(cipher: FieldCipher, sealed: unknown, owner: DocumentOwner, fileId: string): Buffer {
  return Buffer.from(cipher.open(sealed, DATA_KEY_CONTEXT, keyOwner(owner, fileId)), 'base64');
}

function keyOwner(owner: DocumentOwner, fileId: string): string {
  return `${owner.clientId}/${owner.applicantId}/${fileId}`;
}

/**
 * Writes into a GridFS upload stream, and when destroyed (the upload failed) closes only once
 * the chunk write it started has landed: removing the chunks after that leaves none behind.
 */
class BucketSink extends Writable {
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly upload: GridFSBucketWriteStream) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.inFlight = new Promise((resolve) => {
      this.upload.write(chunk, (error) => {
        resolve();
        done(error ?? null);
      });
    });
  }

  override _final(done: (error?: Error | null) => void): void {
    this.upload.end((error?: Error | null) => done(error ?? null));
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    void this.inFlight.then(() => done(error));
  }
}
