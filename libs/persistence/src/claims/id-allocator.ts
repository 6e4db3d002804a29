import { Connection } from 'mongoose';
import { ClaimBatches } from './claim-batches';
import { isDuplicateKey } from '../mongo-errors';
import { Ids } from '../storage';

const MAX_ATTEMPTS = 50;
/** Lost races in a row after which the highest claim is read rather than stepped towards. */
const RACES_BEFORE_READ = 3;

interface IdClaim {
  _id: number;
}

/**
 * Hands out the public integer ids: positive, increasing, never reused, unique across every
 * instance of a service. Each id is claimed by inserting `{_id: n}` into a collection per kind;
 * the `_id` index makes a claim atomic on MongoDB and on FerretDB alike (whose `$inc` is not:
 * 200 concurrent increments of one counter there returned 27 distinct values). Claims from one
 * process go one batch at a time, so instances contend only with each other; the loser of a race
 * reads the highest claim and moves past it.
 *
 * The callers that arrive while a claim is under way are served together by the next one: one
 * ordered insert of as many consecutive ids, handed out in the order the callers came. An id is
 * skipped only once it is claimed, so another instance can never take a lower one later.
 *
 * The id a lost race stopped at is claimed, so the next try starts just past it: two instances
 * creating side by side usually lose by one id, and stepping costs one insert where reading the
 * highest claim is a sort (on FerretDB, of the whole collection). The highest is read only after
 * several races lost in a row, when the other instances are further ahead.
 */
export class IdAllocator implements Ids {
  private readonly nextCandidate = new Map<string, number>();
  private readonly batches = new ClaimBatches<string, null>((kind, callers) => this.claim(kind, callers.length));

  constructor(private readonly connection: Connection) {}

  allocate(kind: string): Promise<number> {
    return this.batches.take(kind, null);
  }

  /** Claims `count` ids, in increasing order. */
  private async claim(kind: string, count: number): Promise<number[]> {
    const claims = this.connection.collection<IdClaim>(`${kind}_ids`);
    const ids: number[] = [];
    let candidate = this.nextCandidate.get(kind) ?? (await this.highest(kind)) + 1;
    let racesLost = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && ids.length < count; attempt++) {
      const wanted = Array.from({ length: count - ids.length }, (_, i) => candidate + i);
      try {
        await claims.insertMany(
          wanted.map((_id) => ({ _id })),
          { ordered: true },
        );
        ids.push(...wanted);
        candidate += wanted.length;
        racesLost = 0;
      } catch (error: unknown) {
        // An ordered insert stops at its first failure; what it inserted before is ours.
        const inserted = (error as { insertedCount?: number }).insertedCount ?? 0;
        ids.push(...wanted.slice(0, inserted));
        candidate += inserted;
        this.nextCandidate.set(kind, candidate);
        if (!isDuplicateKey(error)) throw error;
        racesLost = inserted > 0 ? 1 : racesLost + 1;
        candidate = racesLost < RACES_BEFORE_READ ? candidate + 1 : Math.max(candidate + 1, (await this.highest(kind)) + 1);
      }
      this.nextCandidate.set(kind, candidate);
    }
    if (ids.length < count) throw new Error(`no ${kind} id could be claimed after ${MAX_ATTEMPTS} attempts`);
    return ids;
  }

  private async highest(kind: string): Promise<number> {
    const claims = this.connection.collection<IdClaim>(`${kind}_ids`);
    const [top] = await claims
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    return top?._id ?? 0;
  }
}
