import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderedLists, Storage } from '@app/persistence';

/** What the budget counts in: a file takes its size in these, rounded up. */
export const STORAGE_UNIT_BYTES = 256 * 1024;

/**
 * Each client's document storage, counted without a counter: every file kept appends its units
 * to the client's `taken:<client>` list, every file given back appends as many to
 * `freed:<client>`, and what the client uses is the difference of the two lists' heads. Lists of
 * positions claimed by insert-once entries (OrderedLists), so that uploads at once each get
 * their own positions where an `$inc` would lose one on FerretDB, and read by `_id` alone.
 */
@Injectable()
export class DocumentStorage implements OnModuleInit {
  private readonly lists: OrderedLists<string>;

  constructor(storage: Storage) {
    this.lists = storage.orderedLists<string>('document_storage', { field: 'file_id' });
  }

  async onModuleInit(): Promise<void> {
    await this.lists.prepare();
  }

  /**
   * Takes the file's units from the client's budget of `budgetBytes`: false, with nothing
   * taken, when they do not fit. Of uploads at once, those whose units came last are refused.
   */
  async take(clientId: number, fileId: string, size: number, budgetBytes: number): Promise<boolean> {
    const positions = await Promise.all(unitsOf(size).map(() => this.lists.append(`taken:${clientId}`, fileId)));
    const freed = await this.lists.head(`freed:${clientId}`);
    if ((Math.max(...positions) - freed) * STORAGE_UNIT_BYTES <= budgetBytes) return true;
    await this.giveBack(clientId, fileId, size);
    return false;
  }

  /** Gives the file's units back to the client's budget: its record was not kept, or it is removed. */
  async giveBack(clientId: number, fileId: string, size: number): Promise<void> {
    await Promise.all(unitsOf(size).map(() => this.lists.append(`freed:${clientId}`, fileId)));
  }

  /** The bytes the client's kept files take, in whole units. */
  async used(clientId: number): Promise<number> {
    return ((await this.lists.head(`taken:${clientId}`)) - (await this.lists.head(`freed:${clientId}`))) * STORAGE_UNIT_BYTES;
  }
}

function unitsOf(size: number): number[] {
  return Array.from({ length: Math.max(1, Math.ceil(size / STORAGE_UNIT_BYTES)) }, (_, i) => i);
}
