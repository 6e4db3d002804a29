import { Injectable, OnModuleInit } from '@nestjs/common';
import { Budgets, Storage } from '@app/persistence';

/** What the budget counts in: a file takes its size in these, rounded up. */
export const STORAGE_UNIT_BYTES = 256 * 1024;

/** Which budget refused a file: the client's, or the part of it uploads on unsubmitted public forms share. */
export type StorageRefusal = 'budget' | 'unsubmitted';

/**
 * Each client's document storage, a budget (Budgets) counted in STORAGE_UNIT_BYTES units: a file
 * kept takes its units, a file given back returns them, once, however many erasures or sweeps at
 * once give it back. The lists of units taken and freed are `taken:<client>` and `freed:<client>`
 * in `document_storage`, as before grants were recorded.
 *
 * A file uploaded on a form a visitor started on the public form, before its applicant completed
 * it, takes its units from a second budget as well, `unsubmitted_document_storage`: the part of
 * the client's budget that uploads nobody has sent yet may hold, so that strangers' uploads never
 * take the rest from applicants an integrator made or who have sent their form. The units leave
 * it when the applicant completes its form, or the file goes.
 */
@Injectable()
export class DocumentStorageRepository implements OnModuleInit {
  private readonly budgets: Budgets;
  private readonly unsubmitted: Budgets;

  constructor(storage: Storage) {
    this.budgets = storage.budgets('document_storage');
    this.unsubmitted = storage.budgets('unsubmitted_document_storage');
  }

  async onModuleInit(): Promise<void> {
    await this.budgets.prepare();
    await this.unsubmitted.prepare();
  }

  /**
   * Takes the file's units from the client's budget of `budgetBytes` and, for an upload on a
   * public form not yet submitted, first from the `unsubmittedBytes` such uploads share: null when
   * they fit, else the budget that refused them (with nothing taken).
   */
  async take(
    clientId: number,
    fileId: string,
    size: number,
    budgetBytes: number,
    unsubmittedBytes?: number,
  ): Promise<StorageRefusal | null> {
    const owner = String(clientId);
    if (
      unsubmittedBytes !== undefined &&
      !(await this.unsubmitted.take(owner, fileId, unitsOf(size), unitsIn(unsubmittedBytes)))
    ) {
      return 'unsubmitted';
    }
    if (await this.budgets.take(owner, fileId, unitsOf(size), unitsIn(budgetBytes))) return null;
    if (unsubmittedBytes !== undefined) await this.sent(clientId, fileId);
    return 'budget';
  }

  /** Gives the file's units back to the client's budget (and to the unsubmitted part), once: its record was not kept, or it is removed. */
  async giveBack(clientId: number, fileId: string, size: number): Promise<void> {
    await this.sent(clientId, fileId);
    await this.budgets.giveBack(String(clientId), fileId, unitsOf(size));
  }

  /**
   * Gives back what the file took of the part unsubmitted uploads share, once; it keeps its room
   * in the budget. No units for a file that took none there (one of an applicant made through the
   * API, or one uploaded before that part was counted).
   */
  sent(clientId: number, fileId: string): Promise<void> {
    return this.unsubmitted.giveBack(String(clientId), fileId, 0);
  }

  /** The bytes the client's kept files take, in whole units. */
  async used(clientId: number): Promise<number> {
    return (await this.budgets.used(String(clientId))) * STORAGE_UNIT_BYTES;
  }
}

function unitsIn(bytes: number): number {
  return Math.floor(bytes / STORAGE_UNIT_BYTES);
}

function unitsOf(size: number): number {
  return Math.max(1, Math.ceil(size / STORAGE_UNIT_BYTES));
}
