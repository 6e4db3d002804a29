import { Connection } from 'mongoose';
import { ID_BLOCK_SIZE, IdAllocator } from './id-allocator';

/**
 * Claim collections in memory with what the allocator relies on: a unique `_id` (error code 11000
 * on a duplicate) and the highest claim. Each insert answers on a later turn of the event loop,
 * as a database does.
 */
class ClaimStore {
  readonly kinds = new Map<string, Set<number>>();
  inserts = 0;
  highestReads = 0;

  connection(): Connection {
    const collection = (name: string) => {
      const claimed = this.kinds.get(name) ?? new Set<number>();
      this.kinds.set(name, claimed);
      return {
        insertOne: async ({ _id }: { _id: number }) => {
          this.inserts++;
          await new Promise((resolve) => setImmediate(resolve));
          if (claimed.has(_id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
          claimed.add(_id);
        },
        find: () => ({
          sort: () => ({
            limit: () => ({
              toArray: async () => {
                this.highestReads++;
                return claimed.size > 0 ? [{ _id: Math.max(...claimed) }] : [];
              },
            }),
          }),
        }),
      };
    };
    return { collection } as unknown as Connection;
  }
}

const SIZE = ID_BLOCK_SIZE;
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('IdAllocator', () => {
  it('gives concurrent callers in one process increasing ids in the order they asked, from claimed blocks', async () => {
    const store = new ClaimStore();
    const ids = new IdAllocator(store.connection());

    const allocated = await Promise.all(range(0, SIZE + 5).map(() => ids.allocate('properties')));

    expect(allocated).toEqual(range(1, SIZE + 5));
    // One read of the highest claim to start from, and one insert per block.
    expect(store.highestReads).toBe(1);
    expect(store.inserts).toBe(2);
    expect([...store.kinds.get('properties_ids')!]).toEqual([SIZE, 2 * SIZE]);
  });

  it('hands out a block from memory: one insert for as many ids', async () => {
    const store = new ClaimStore();
    const ids = new IdAllocator(store.connection());

    for (let i = 1; i <= SIZE; i++) expect(await ids.allocate('properties')).toBe(i);
    expect(store.inserts).toBe(1);
    expect(await ids.allocate('properties')).toBe(SIZE + 1);
    expect(store.inserts).toBe(2);
  });

  it('keeps each kind on its own sequence', async () => {
    const ids = new IdAllocator(new ClaimStore().connection());

    expect(await ids.allocate('properties')).toBe(1);
    expect(await ids.allocate('floor_plans')).toBe(1);
    expect(await ids.allocate('properties')).toBe(2);
  });

  it('starts with the first block above the highest id already claimed, single ids of earlier versions included', async () => {
    const store = new ClaimStore();
    store.kinds.set('properties_ids', new Set([1, 2, SIZE + 8]));

    expect(await new IdAllocator(store.connection()).allocate('properties')).toBe(2 * SIZE + 1);
  });

  it('never hands out an id twice across instances, each instance in increasing order', async () => {
    const store = new ClaimStore();
    const instances = [
      new IdAllocator(store.connection()),
      new IdAllocator(store.connection()),
      new IdAllocator(store.connection()),
    ];

    const asked = range(0, 10 * SIZE).map((i) => ({ instance: i % 3, id: instances[i % 3].allocate('applications') }));
    const allocated = await Promise.all(asked.map(async ({ instance, id }) => ({ instance, id: await id })));

    expect(new Set(allocated.map((a) => a.id)).size).toBe(allocated.length);
    for (const instance of [0, 1, 2]) {
      const own = allocated.filter((a) => a.instance === instance).map((a) => a.id);
      expect(own).toEqual([...own].sort((a, b) => a - b));
    }
    // Every id handed out lies in a block its instance claimed.
    const claimed = [...store.kinds.get('applications_ids')!];
    for (const { id } of allocated) expect(claimed).toContain(Math.ceil(id / SIZE) * SIZE);
  });

  it('moves to the next block when another instance has claimed one, without reading the highest claim', async () => {
    const store = new ClaimStore();
    const one = new IdAllocator(store.connection());
    const two = new IdAllocator(store.connection());
    await one.allocate('properties');
    await two.allocate('properties');

    expect(await one.allocate('properties')).toBe(2);
    expect(await two.allocate('properties')).toBe(SIZE + 2);
    // Each read the highest once, at its start; the loser of the first block tried the next one.
    expect(store.highestReads).toBe(2);
  });

  it('reads the highest claim after several lost races, rather than walking block by block', async () => {
    const store = new ClaimStore();
    const ids = new IdAllocator(store.connection());
    expect(await ids.allocate('properties')).toBe(1);
    range(1, 20).forEach((k) => store.kinds.get('properties_ids')!.add((k + 1) * SIZE));
    for (let i = 2; i <= SIZE; i++) await ids.allocate('properties');

    expect(await ids.allocate('properties')).toBe(21 * SIZE + 1);
    expect(store.highestReads).toBe(2);
  });

  it('passes on an error that is not a lost race to every waiting caller, and skips the block it may have claimed', async () => {
    const store = new ClaimStore();
    const connection = store.connection();
    let down = true;
    const flaky = {
      collection: (name: string) => {
        const collection = connection.collection(name) as unknown as { insertOne(...args: unknown[]): Promise<void> };
        return {
          ...collection,
          insertOne: async (...args: unknown[]) => {
            if (down) throw new Error('connection refused');
            return collection.insertOne(...args);
          },
        };
      },
    } as unknown as Connection;
    const ids = new IdAllocator(flaky);

    const failed = await Promise.allSettled([ids.allocate('properties'), ids.allocate('properties')]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    down = false;
    expect(await ids.allocate('properties')).toBe(SIZE + 1);
  });
});
