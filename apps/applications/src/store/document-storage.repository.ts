import { Injectable, OnModuleInit } from '@nestjs/common';
import { Budgets, Storage } from '@app/persistence';

/** What the budget counts in: a file takes its size in these, rounded up. */
export const STORAGE_UNIT_BYTES = 256 * 1024;

/**
 * Each client's document storage, a budget (Budgets) counted in STORAGE_UNIT_BYTES units: a file
 * kept takes its units, a file given back returns them, once, however many erasures or sweeps at
 * once give it back. The lists of units taken and freed are `taken:<client>` and `freed:<client>`
 * in `document_storage`, as before grants were recorded.
 */
@Injectable()
export class DocumentStorageRepository implements OnModuleInit {
  private readonly budgets: Budgets;

  constructor(storage: Storage) {
    this.budgets = storage.budgets('document_storage');
  }

  onModuleInit(): Promise<void> {
    return this.budgets.prepare();
  }

  /** Takes the file's units from the client's budget of `budgetBytes`: false, with nothing taken, when they do not fit. */
  take(clientId: number, fileId: string, size: number, budgetBytes: number): Promise<boolean> {
    return this.budgets.take(String(clientId), fileId, unitsOf(size), Math.floor(budgetBytes / STORAGE_UNIT_BYTES));
  }

  /** Gives the file's units back to the client's budget, once: its record was not kept, or it is removed. */
  giveBack(clientId: number, fileId: string, size: number): Promise<void> {
    return this.budgets.giveBack(String(clientId), fileId, unitsOf(size));
  }

  /** The bytes the client's kept files take, in whole units. */
  async used(clientId: number): Promise<number> {
    return (await this.budgets.used(String(clientId))) * STORAGE_UNIT_BYTES;
  }
}

function unitsOf(size: number): number {
  return Math.max(1, Math.ceil(size / STORAGE_UNIT_BYTES));
}
