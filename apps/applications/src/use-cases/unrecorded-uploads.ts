import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DocumentVault } from '@app/documents';
import { BackgroundPurge } from '@app/persistence';
import { ApplicantDocumentsRepository } from '../store/applicant-documents.repository';

/**
 * How long an uploaded file may stay without a record naming it. The form stores the file, then
 * asks for its record within the same request (seconds); a file still without one a day later
 * belongs to an upload whose record was refused, timed out, or whose process died in between.
 */
export const UNRECORDED_UPLOAD_GRACE_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 3600 * 1000;
/** Files looked at per round trip of the sweep. */
const SWEEP_BATCH = 500;

/**
 * Removes the files of the documents bucket that no record names once their grace has passed,
 * and the chunks of uploads that never got a file's record: nobody can list or download them,
 * they hold an applicant's document (encrypted), and they would fill the bucket for ever. Run hourly by every
 * instance; instances that sweep at once remove each file once.
 */
@Injectable()
export class UnrecordedUploads implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly sweep = new BackgroundPurge(
    'uploads no record names',
    SWEEP_EVERY_MS,
    async () => (await this.remove()) + (await this.removeUnfiled()),
  );

  constructor(
    private readonly vault: DocumentVault,
    private readonly records: ApplicantDocumentsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  onModuleDestroy(): void {
    this.sweep.stop();
  }

  /** Removes the files stored before `now` less the grace that no record names; how many went. */
  async remove(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - UNRECORDED_UPLOAD_GRACE_MS);
    let removed = 0;
    let after: string | undefined;
    for (;;) {
      const files = await this.vault.storedBefore(before, SWEEP_BATCH, after);
      if (files.length === 0) return removed;
      const recorded = await this.records.recorded(files);
      for (const fileId of files.filter((id) => !recorded.has(id))) {
        await this.vault.remove(fileId);
        removed += 1;
      }
      if (files.length < SWEEP_BATCH) return removed;
      after = files.at(-1);
    }
  }

  /**
   * Removes the chunks of uploads cut off before their file's record was written (the process
   * died mid-upload), once the grace has passed since they started; how many files' chunks went.
   */
  async removeUnfiled(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - UNRECORDED_UPLOAD_GRACE_MS);
    let removed = 0;
    let after: string | undefined;
    for (;;) {
      const { unfiled, next } = await this.vault.unfiledBefore(before, SWEEP_BATCH, after);
      for (const fileId of unfiled) await this.vault.remove(fileId);
      removed += unfiled.length;
      if (next === null) return removed;
      after = next;
    }
  }
}
