import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ClaimBatches, ignoreExistingCollection, isDuplicateKey } from '@app/persistence';

/** Position `n` of a list: the n-th application made in it. */
interface IndexEntry {
  /** `<list>:<position>`, the list `c<client id>` or `p<client id>:<property id>` */
  _id: string;
  application_id: number;
  created_at: Date;
}

export interface IndexedApplication {
  position: number;
  application_id: number;
}

/** Which list: all of a client's applications, or those of one of its properties. */
export interface ApplicationList {
  clientId: number;
  propertyId?: number;
}

const MAX_ATTEMPTS = 50;
/** Lists whose head is remembered; past this many the memory starts over (heads are found again). */
const MAX_REMEMBERED_HEADS = 10_000;

/**
 * The lists of applications, newest first, read without scanning. FerretDB (1.24, SQLite) uses an
 * index only for a filter on `_id` alone, `{_id: <string>}` or, in the project's build
 * (scripts/ferretdb-patches), `{_id: {$in: [...]}}`: a range on `_id`, a sort or any other field
 * reads and decodes every document of the collection. So each list is a dense run of positions
 * 1, 2, 3, ..., each an entry under its own `_id`, and a page is one read of the keys of
 * positions p, p-1, ... down from the newest (or from the cursor).
 *
 * An entry is written before its application, with the application's id; a position is claimed
 * by inserting its entry, which the `_id` index makes atomic across instances. A position is
 * claimed only once the one below it is known to be taken, so the positions stay dense and the
 * newest one (the head) is found by probing: doubling steps up from the last head known, then
 * halving. An entry whose application is missing (being created, a create that failed, or the
 * repeat of a request whose first try stored the application) is skipped by readers, so a list
 * never shows an application twice.
 */
@Injectable()
export class ApplicationIndex implements OnModuleInit {
  /** Per list, a position known to be taken: where probing for the head starts. */
  private readonly heads = new Map<string, number>();
  /** Per list, the appends waiting for the one under way to finish. */
  private readonly batches = new ClaimBatches<string, number>((name, applicationIds) => this.claim(name, applicationIds));

  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get entries() {
    return this.connection.collection<IndexEntry>('application_index');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('application_index').catch(ignoreExistingCollection);
  }

  /** Puts a new application at the head of its client's list and of its property's. */
  async add(clientId: number, propertyId: number, applicationId: number): Promise<void> {
    await Promise.all([
      this.append(listName({ clientId }), applicationId),
      this.append(listName({ clientId, propertyId }), applicationId),
    ]);
  }

  /** The newest position of the list; 0 when it is empty. */
  head(list: ApplicationList): Promise<number> {
    return this.findHead(listName(list));
  }

  /**
   * Up to `count` entries from position `from` downwards, newest first: one read of their keys,
   * which MongoDB and the project's FerretDB build both answer from the `_id` index.
   */
  async read(list: ApplicationList, from: number, count: number): Promise<IndexedApplication[]> {
    const name = listName(list);
    const positions = Array.from({ length: Math.max(0, Math.min(count, from)) }, (_, i) => from - i);
    if (positions.length === 0) return [];
    const keys = positions.map((position) => entryKey(name, position));
    const found = new Map<string, IndexEntry>();
    for (const entry of await this.entries.find({ _id: { $in: keys } }).toArray()) found.set(entry._id, entry);
    return positions.flatMap((position, i) => {
      const entry = found.get(keys[i]);
      return entry ? [{ position, application_id: entry.application_id }] : [];
    });
  }

  /**
   * The appends that arrive while one is under way are claimed together by the next one: one
   * ordered insert of consecutive positions, handed out in the order the callers came. So one
   * process does not race itself, and a busy list costs one insert per batch, not per application;
   * only instances race, and the loser moves past the winner.
   */
  private append(name: string, applicationId: number): Promise<number> {
    return this.batches.take(name, applicationId);
  }

  private async claim(name: string, applicationIds: number[]): Promise<number[]> {
    const positions: number[] = [];
    let next = (this.heads.get(name) ?? (await this.findHead(name))) + 1;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && positions.length < applicationIds.length; attempt++) {
      const pending = applicationIds.slice(positions.length);
      const created_at = new Date();
      const entries = pending.map((application_id, i) => ({ _id: entryKey(name, next + i), application_id, created_at }));
      try {
        await this.entries.insertMany(entries, { ordered: true });
        positions.push(...pending.map((_, i) => next + i));
        this.remember(name, next + pending.length - 1);
      } catch (error: unknown) {
        // An ordered insert stops at its first failure; what it inserted before is ours.
        const inserted = (error as { insertedCount?: number }).insertedCount ?? 0;
        positions.push(...pending.slice(0, inserted).map((_, i) => next + i));
        if (!isDuplicateKey(error)) throw error;
        // The position that failed is taken: the head is there or further up.
        this.remember(name, next + inserted);
        next = (await this.findHead(name)) + 1;
        continue;
      }
      next += pending.length;
    }
    if (positions.length < applicationIds.length) {
      throw new Error(`no position in application list ${name} could be claimed after ${MAX_ATTEMPTS} attempts`);
    }
    return positions;
  }

  private async findHead(name: string): Promise<number> {
    let taken = this.heads.get(name) ?? 0;
    let step = 1;
    while (await this.exists(name, taken + step)) {
      taken += step;
      step *= 2;
    }
    let free = taken + step;
    while (free - taken > 1) {
      const middle = Math.floor((taken + free) / 2);
      if (await this.exists(name, middle)) taken = middle;
      else free = middle;
    }
    this.remember(name, taken);
    return taken;
  }

  private async exists(name: string, position: number): Promise<boolean> {
    return (await this.entries.findOne({ _id: entryKey(name, position) }, { projection: { _id: 1 } })) !== null;
  }

  private remember(name: string, position: number): void {
    if (position <= (this.heads.get(name) ?? 0)) return;
    if (this.heads.size >= MAX_REMEMBERED_HEADS) this.heads.clear();
    this.heads.set(name, position);
  }
}

function listName({ clientId, propertyId }: ApplicationList): string {
  return propertyId === undefined ? `c${clientId}` : `p${clientId}:${propertyId}`;
}

function entryKey(name: string, position: number): string {
  return `${name}:${position}`;
}
