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
 * and the chunks of uploads that never became a file (refused or cut off part-way): nobody can
 * list or download them, and they would fill the bucket for ever. The form, whose database user
 * may remove nothing, leaves both here. Run hourly by every instance; instances that sweep at
 * once remove each file once.
 */
@Injectable()
export class UnrecordedUploads implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly sweep = new BackgroundPurge('uploads no record names', SWEEP_EVERY_MS, () => this.remove());

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

  /**
   * Removes the files stored before `now` less the grace that no record names, then the uploads
   * begun before it that left chunks but no file; how many went.
   */
  async remove(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - UNRECORDED_UPLOAD_GRACE_MS);
    const files = await this.removeEach(
      (after) => this.vault.storedBefore(before, SWEEP_BATCH, after),
      (ids) => this.records.recorded(ids),
    );
    const unfinished = await this.removeEach(
      (after) => this.vault.startedBefore(before, SWEEP_BATCH, after),
      (ids) => this.vault.withFileRecord(ids),
    );
    return files + unfinished;
  }

  /** Removes each file that `batch` finds, page by page, but those `kept` names. */
  private async removeEach(
    batch: (after?: string) => Promise<string[]>,
    kept: (fileIds: string[]) => Promise<Set<string>>,
  ): Promise<number> {
    let removed = 0;
    let after: string | undefined;
    for (;;) {
      const files = await batch(after);
      if (files.length === 0) return removed;
      const spared = await kept(files);
      for (const fileId of files.filter((id) => !spared.has(id))) {
        await this.vault.remove(fileId);
        removed += 1;
      }
      if (files.length < SWEEP_BATCH) return removed;
      after = files.at(-1);
    }
  }
}
