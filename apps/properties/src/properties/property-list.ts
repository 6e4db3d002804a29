import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ClaimBatches, claimed, isDuplicateKey } from '@app/persistence';

/** Position `seq` in a client's list: the property created seq-th. */
interface ListEntry {
  /** `<client id>:<seq>` */
  _id: string;
  client_id: number;
  property_id: number;
}

/** A hint of the client's highest position: `<client id>:head`. May lag; never ahead. */
interface ListHead {
  _id: string;
  seq: number;
}

const MAX_CLAIM_ATTEMPTS = 50;
/** Lost races in a row after which the highest position is read again rather than the next one tried. */
const RACES_BEFORE_READING = 3;

/**
 * Each client's properties in the order they were created, as positions 1, 2, 3, ... with no
 * gaps, one document per position under `_id` "<client id>:<position>".
 *
 * A page reads consecutive positions, newest first, with one `{_id: {$in: [...]}}`, so its cost
 * is the page's on MongoDB, where that is an index search. FerretDB 1.24 on SQLite has no such
 * plan: it hands `{_id: <string>}` (and only that) to SQLite, which scans rows in insertion order
 * up to the match (the unique index is on `_ferretdb_sjson->"_id"`, the query reads
 * `->'$._id'`, so EXPLAIN QUERY PLAN says SCAN); every other filter, a range on `_id`, `$in`, a
 * sort or a limit is done by decoding documents in FerretDB, which is slower still (a 26-entry
 * range page among 10,000 entries took ~600 ms; a point read of one of the last of 10,000
 * entries 13 ms, of one of the first 0.75 ms). One `$in` read per page is then cheaper than
 * a point read per position: the first page among 10,000 properties took 3.2 s with point reads.
 *
 * A position is claimed by inserting its document (unique `_id`), trying the next one up when
 * taken; claims start at or below the highest taken, so positions stay gapless, and the highest
 * is found from the head hint by probing upwards. The appends of one client that arrive while
 * one is under way in this process are claimed together by the next: one ordered insert of
 * consecutive positions, handed out in the order the callers came (an ordered insert stops at
 * its first taken position, keeping those before it). The process remembers the position after
 * its last claim, so it reads the highest only at first, after an error, or after several lost
 * races; without this, 32 concurrent appends all claimed the same position, one won, and the
 * rest tried the next: about 16 inserts each.
 */
@Injectable()
export class PropertyList {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** The collection of the list; FormPresetList keeps presets the same way in its own. */
  protected readonly collectionName: string = 'property_list';

  private get entries() {
    return this.connection.collection<ListEntry | ListHead>(this.collectionName);
  }

  /** Per client, the position after this process's last claim: where its next claim starts. */
  private readonly next = new Map<number, number>();
  // What a failed claim did is unknown: the next one starts from the highest again.
  private readonly batches = new ClaimBatches<number, number>(
    (clientId, propertyIds) => this.claim(clientId, propertyIds),
    (clientId) => this.next.delete(clientId),
  );

  /** Gives the property the client's next position. Call before storing the property. */
  append(clientId: number, propertyId: number): Promise<number> {
    return this.batches.take(clientId, propertyId);
  }

  /** Consecutive free positions for `propertyIds`, in order, and the head hint moved up to them. */
  private async claim(clientId: number, propertyIds: number[]): Promise<number[]> {
    const positions: number[] = [];
    let seq = this.next.get(clientId) ?? (await this.highest(clientId)) + 1;
    for (let attempt = 1; positions.length < propertyIds.length; attempt++) {
      if (attempt > MAX_CLAIM_ATTEMPTS) throw new Error(`no list position could be claimed for client ${clientId}`);
      const entries: ListEntry[] = propertyIds
        .slice(positions.length)
        .map((propertyId, i) => ({ _id: entryKey(clientId, seq + i), client_id: clientId, property_id: propertyId }));
      let inserted = entries.length;
      let lostRace = false;
      try {
        await this.entries.insertMany(entries, { ordered: true });
      } catch (error: unknown) {
        if (!isDuplicateKey(error)) throw error;
        inserted = (error as { insertedCount?: number }).insertedCount ?? 0;
        lostRace = true;
      }
      positions.push(...entries.slice(0, inserted).map((_, i) => seq + i));
      seq += inserted;
      if (lostRace) {
        seq = attempt % RACES_BEFORE_READING === 0 ? Math.max(seq + 1, (await this.highest(clientId)) + 1) : seq + 1;
      }
    }
    this.next.set(clientId, seq);
    // Two first appends may both upsert the head; the loser's hint is the winner's to give.
    await claimed(
      this.entries.updateOne({ _id: headKey(clientId) }, { $max: { seq: positions[positions.length - 1] } }, { upsert: true }),
    );
    return positions;
  }

  /** The property ids at positions `from`, `from - 1`, ... (`count` of them, down to 1), in one read. */
  async at(clientId: number, from: number, count: number): Promise<Array<{ seq: number; propertyId: number | null }>> {
    const positions = Array.from({ length: Math.max(0, Math.min(count, from)) }, (_, i) => from - i);
    if (positions.length === 0) return [];
    const keys = positions.map((seq) => entryKey(clientId, seq));
    const found = (await this.entries
      .find({ _id: { $in: keys } })
      .limit(keys.length)
      .toArray()) as ListEntry[];
    const byKey = new Map(found.map((entry) => [entry._id, entry]));
    return positions.map((seq, i) => {
      const entry = byKey.get(keys[i]);
      return { seq, propertyId: entry && entry.client_id === clientId ? entry.property_id : null };
    });
  }

  /** The client's highest position, 0 when it has none: the hint, then probes above it. */
  async highest(clientId: number): Promise<number> {
    const head = (await this.entries.findOne({ _id: headKey(clientId) })) as ListHead | null;
    let low = head?.seq ?? 0;
    if (!(await this.taken(clientId, low + 1))) return low;
    // Doubling steps up to a free position, then halving back down to the last taken one.
    let step = 1;
    let high = low + 1;
    while (await this.taken(clientId, high)) {
      low = high;
      step *= 2;
      high = low + step;
    }
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await this.taken(clientId, middle)) low = middle;
      else high = middle;
    }
    return low;
  }

  private async taken(clientId: number, seq: number): Promise<boolean> {
    return (await this.entries.findOne({ _id: entryKey(clientId, seq) }, { projection: { _id: 1 } })) !== null;
  }
}

function entryKey(clientId: number, seq: number): string {
  return `${clientId}:${seq}`;
}

function headKey(clientId: number): string {
  return `${clientId}:head`;
}
