import { Connection } from 'mongoose';
import { isDuplicateKey } from './mongo-errors';

/** Ids an instance claims at once, per kind. An instance that stops leaves the rest of its block unused. */
export const ID_BLOCK_SIZE = 32;
const MAX_ATTEMPTS = 50;
/** Lost races in a row after which the highest claim is read rather than the next block tried. */
const RACES_BEFORE_READING = 3;

interface IdClaim {
  _id: number;
}

interface Block {
  next: number;
  last: number;
}

/**
 * Hands out the public integer ids: positive, increasing, never reused, unique across every
 * instance of a service. An instance claims a block of ID_BLOCK_SIZE ids of a kind with one
 * insert of `{_id: <the block's last id>}` into the kind's claim collection, and hands them out
 * from memory in the order it is asked. Blocks are aligned (block k holds k*SIZE+1 to
 * (k+1)*SIZE), so two blocks are either the same, which the `_id` index refuses to claim twice,
 * or apart: instances never contend for an id, only for a block, about once per SIZE creates.
 * The index makes a claim atomic on MongoDB and on FerretDB alike (whose `$inc` is not: 200
 * concurrent increments of one counter there returned 27 distinct values).
 *
 * Each instance's ids increase; ids from two instances interleave by block. An instance reads the
 * highest claim once per kind, when it first needs one (single-id claims left by earlier versions
 * count too), and after that tries the next block, reading again only after several lost races.
 * All instances of a service must run this allocator: a version that claims single ids would not
 * see the ids inside a block.
 */
export class IdAllocator {
  private readonly blocks = new Map<string, Block>();
  private readonly nextBlock = new Map<string, number>();
  private readonly claiming = new Map<string, Promise<void>>();

  constructor(private readonly connection: Connection) {}

  async allocate(kind: string): Promise<number> {
    for (;;) {
      const block = this.blocks.get(kind);
      if (block && block.next <= block.last) return block.next++;
      // Callers that find the block spent wait for one claim, and resume in the order they came.
      let claim = this.claiming.get(kind);
      if (!claim) {
        claim = this.claimBlock(kind).finally(() => this.claiming.delete(kind));
        this.claiming.set(kind, claim);
      }
      await claim;
    }
  }

  private async claimBlock(kind: string): Promise<void> {
    const claims = this.connection.collection<IdClaim>(`${kind}_ids`);
    let block = this.nextBlock.get(kind) ?? (await this.blockAfterHighest(kind));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const last = (block + 1) * ID_BLOCK_SIZE;
      try {
        await claims.insertOne({ _id: last });
        this.blocks.set(kind, { next: last - ID_BLOCK_SIZE + 1, last });
        this.nextBlock.set(kind, block + 1);
        return;
      } catch (error: unknown) {
        // Unless another instance has it, the block may be ours after all (an answer lost on the
        // way): it is skipped either way, since it may be claimed, so no id in it is ever given twice.
        this.nextBlock.set(kind, block + 1);
        if (!isDuplicateKey(error)) throw error;
        block = attempt % RACES_BEFORE_READING === 0 ? Math.max(block + 1, await this.blockAfterHighest(kind)) : block + 1;
      }
    }
    throw new Error(`no block of ${kind} ids could be claimed after ${MAX_ATTEMPTS} attempts`);
  }

  /** The first block wholly above every id claimed so far. */
  private async blockAfterHighest(kind: string): Promise<number> {
    const claims = this.connection.collection<IdClaim>(`${kind}_ids`);
    const [top] = await claims
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    return Math.ceil((top?._id ?? 0) / ID_BLOCK_SIZE);
  }
}
