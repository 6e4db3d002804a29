import { randomBytes } from 'node:crypto';
import { finished, pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import mongoose from 'mongoose';
import { FormSealedValue, SealedValue } from '@app/contracts';
import { FieldCipher, FormOpener, FormSealer, isFormSealedValue } from '@app/crypto';
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
  /**
   * The file's data key, sealed for its owner and file: to FORM_SEALING_PUBLIC_KEY as the form
   * stores it, then with the FIELD_ENCRYPTION_KEYS key ring once the applications service kept
   * its record (DocumentVault.adopt), which is how the gateway opens it.
   */
  key: SealedValue | FormSealedValue;
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
 * Where the form streams applicants' uploads into GridFS, encrypted as they stream in: each file
 * gets a data key of its own, sealed to FORM_SEALING_PUBLIC_KEY (the form holds no key that opens
 * it again) and bound to its owner and file; the bytes go to the chunks as AES-256-GCM segments.
 * An upload that fails its checks or is cut off leaves nothing behind.
 */
export class DocumentUploads {
  private readonly bucket: mongoose.mongo.GridFSBucket;

  constructor(
    db: Db,
    private readonly sealer: FormSealer,
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
      key: sealDataKeyToForm(this.sealer, dataKey, owner, fileId.toHexString()),
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

  /** Removes the file and whatever chunks of it were written; nothing when there is none. */
  async remove(fileId: string): Promise<void> {
    // delete() removes the chunks even when the file's record was never written (a cut-off upload).
    await this.bucket.delete(new ObjectId(fileId)).catch(() => undefined);
  }
}

/**
 * Applicants' documents in GridFS as the gateway reads them and the applications service keeps
 * them: each file's data key sealed (wrapped) by the FIELD_ENCRYPTION_KEYS ring's current key, as
 * the SSN is, bound to its owner and file. A copy of the database alone opens nothing, and a file
 * sealed before a new key was put first still opens while its key is in the ring.
 */
export class DocumentVault {
  private readonly bucket: mongoose.mongo.GridFSBucket;
  private readonly files: mongoose.mongo.Collection;
  private readonly chunks: mongoose.mongo.Collection;

  constructor(
    db: Db,
    private readonly cipher: FieldCipher,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: DOCUMENTS_BUCKET });
    this.files = db.collection(`${DOCUMENTS_BUCKET}.files`);
    this.chunks = db.collection(`${DOCUMENTS_BUCKET}.chunks`);
  }

  /**
   * Takes a file the form stored for `owner`: its data key, sealed to the form sealing key, is
   * opened with `opener` and sealed again with the key ring, so that the gateway opens it as any
   * other. A key already sealed with the ring (the file taken before, or stored by a form that
   * held the ring) is left as it is once it opens for the owner. Throws DocumentNotStoredError
   * when there is no such file, SealedValueError when its key is not the owner's.
   */
  async adopt(fileId: string, owner: DocumentOwner, opener: FormOpener): Promise<void> {
    const file = await this.find(fileId);
    const { key } = file.metadata as SealedFileMetadata;
    if (!isFormSealedValue(key)) {
      unwrapDataKey(this.cipher, key, owner, fileId);
      return;
    }
    const dataKey = openFormSealedDataKey(opener, key, owner, fileId);
    await this.files.updateOne({ _id: file._id }, { $set: { 'metadata.key': wrapDataKey(this.cipher, dataKey, owner, fileId) } });
  }

  /**
   * Up to `limit` files stored before `before`, after the file `after` (by id): a read of every
   * file's record on FerretDB, for background work only.
   */
  async storedBefore(before: Date, limit: number, after?: string): Promise<string[]> {
    const filter = { uploadDate: { $lt: before }, ...(after ? { _id: { $gt: new ObjectId(after) } } : {}) };
    const files = await this.files
      .find(filter, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return files.map((file) => (file._id as mongoose.mongo.ObjectId).toHexString());
  }

  /**
   * Up to `limit` ids of files that have chunks but no record of their own, made before `before`
   * (a file's id is an ObjectId, made as its upload starts), after the id `after`: the chunks an
   * upload wrote before its process died, the record being written last. Every file has a first
   * chunk, so one is read per file; still a read of every chunk's id on FerretDB, for background
   * work only. `next` is where the following batch starts; null after the last.
   */
  async unfiledBefore(before: Date, limit: number, after?: string): Promise<{ unfiled: string[]; next: string | null }> {
    const bound = ObjectId.createFromTime(Math.floor(before.getTime() / 1000));
    const filter = { n: 0, files_id: { $lt: bound, ...(after ? { $gt: new ObjectId(after) } : {}) } };
    const firsts = await this.chunks
      .find(filter, { projection: { files_id: 1 } })
      .sort({ files_id: 1 })
      .limit(limit)
      .toArray();
    const ids = firsts.map((chunk) => chunk.files_id as mongoose.mongo.ObjectId);
    const filed = await this.files.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray();
    const known = new Set(filed.map((file) => (file._id as mongoose.mongo.ObjectId).toHexString()));
    const unfiled = ids.map((id) => id.toHexString()).filter((id) => !known.has(id));
    return { unfiled, next: ids.length < limit ? null : ids.at(-1)!.toHexString() };
  }

  /** The file's bytes in clear, as a stream that fails if the stored bytes do not authenticate. */
  async open(fileId: string, owner: DocumentOwner): Promise<Readable> {
    const file = await this.find(fileId);
    const metadata = file.metadata as SealedFileMetadata;
    const dataKey = unwrapDataKey(this.cipher, metadata.key, owner, fileId);
    const decryptor = new SegmentDecryptor(dataKey, Buffer.from(metadata.nonce_prefix, 'base64'));
    const download = this.bucket.openDownloadStream(file._id);
    download.once('error', (error) => decryptor.destroy(error));
    return download.pipe(decryptor);
  }

  /**
   * Removes the file, its metadata (the sealed data key) and its chunks; nothing when there is
   * none, so that an erasure or a sweep done again, or of a file removed before, goes through.
   */
  async remove(fileId: string): Promise<void> {
    if (!ObjectId.isValid(fileId)) return;
    const id = new ObjectId(fileId);
    // Not bucket.delete(), whose "not found" cannot be told from a failure: a failure is thrown,
    // so that what removes nothing does not say it removed the file.
    await this.chunks.deleteMany({ files_id: id });
    await this.files.deleteOne({ _id: id });
  }

  private async find(fileId: string): Promise<mongoose.mongo.GridFSFile> {
    if (!ObjectId.isValid(fileId)) throw new DocumentNotStoredError(fileId);
    const file = await this.bucket.find({ _id: new ObjectId(fileId) }, { limit: 1 }).next();
    if (!file) throw new DocumentNotStoredError(fileId);
    return file;
  }
}

/**
 * Makes the bucket's indexes, as GridFS would on its first upload: the applications service, which
 * owns the database, makes them at start, so that the form (which stores uploads) needs no right
 * to make indexes, only to list them (see files/mongodb/users.js in the chart).
 */
export async function makeBucketIndexes(db: Db): Promise<void> {
  await db.collection(`${DOCUMENTS_BUCKET}.files`).createIndex({ filename: 1, uploadDate: 1 });
  await db.collection(`${DOCUMENTS_BUCKET}.chunks`).createIndex({ files_id: 1, n: 1 }, { unique: true });
}

/** A file's data key sealed to the form sealing key, for its owner and file alone: the form cannot open it. */
export function sealDataKeyToForm(sealer: FormSealer, dataKey: Buffer, owner: DocumentOwner, fileId: string): FormSealedValue {
  return sealer.seal(dataKey.toString('base64'), DATA_KEY_CONTEXT, keyOwner(owner, fileId));
}

/** The data key the form sealed; throws SealedValueError for another owner or file, or another kind of value. */
export function openFormSealedDataKey(opener: FormOpener, sealed: unknown, owner: DocumentOwner, fileId: string): Buffer {
  return Buffer.from(opener.open(sealed, DATA_KEY_CONTEXT, keyOwner(owner, fileId)), 'base64');
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
