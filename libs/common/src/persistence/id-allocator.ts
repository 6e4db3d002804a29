import { Connection } from 'mongoose';

const MAX_ATTEMPTS = 50;
const DUPLICATE_KEY = 11000;

interface IdClaim {
  _id: number;
}

/**
 * Hands out the public integer ids: positive, increasing, never reused, unique across every
 * instance of a service. Each id is claimed by inserting `{_id: n}` into a collection per kind;
 * the `_id` index makes a claim atomic on MongoDB and on FerretDB alike (whose `$inc` is not:
 * 200 concurrent increments of one counter there returned 27 distinct values). Claims from one
 * process go one at a time, so instances contend only with each other; the loser of a race reads
 * the highest claim and moves past it.
 */
export class IdAllocator {
  private readonly nextCandidate = new Map<string, number>();
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly connection: Connection) {}

  allocate(kind: string): Promise<number> {
    const tail = this.tails.get(kind) ?? Promise.resolve();
    const claimed = tail.then(() => this.claim(kind));
    this.tails.set(kind, claimed.catch(() => undefined));
    return claimed;
  }

  private async claim(kind: string): Promise<number> {
    const claims = this.connection.collection<IdClaim>(`${kind}_ids`);
    let candidate = this.nextCandidate.get(kind) ?? (await this.highest(kind)) + 1;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        await claims.insertOne({ _id: candidate });
        this.nextCandidate.set(kind, candidate + 1);
        return candidate;
      } catch (error: unknown) {
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
        candidate = Math.max(candidate + 1, (await this.highest(kind)) + 1);
      }
    }
    throw new Error(`no ${kind} id could be claimed after ${MAX_ATTEMPTS} attempts`);
  }

  private async highest(kind: string): Promise<number> {
    const claims = this.connection.collection<IdClaim>(`${kind}_ids`);
    const [top] = await claims.find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).toArray();
    return top?._id ?? 0;
  }
}
