import { Connection } from 'mongoose';
import { IdAllocator } from './id-allocator';

/**
 * Claim collections in memory with what the allocator relies on: a unique `_id`, an ordered
 * insertMany that stops at the first duplicate (error code 11000, with how many it inserted
 * before), and the highest claim. Each insert answers on a later turn of the event loop, as a
 * database does.
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
        insertMany: async (documents: Array<{ _id: number }>, options: { ordered?: boolean }) => {
          expect(options.ordered).toBe(true);
          this.inserts++;
          await new Promise((resolve) => setImmediate(resolve));
          for (const [insertedCount, { _id }] of documents.entries()) {
            if (claimed.has(_id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000, insertedCount });
            claimed.add(_id);
          }
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

describe('IdAllocator', () => {
  it('gives concurrent callers in one process increasing ids in the order they asked, claimed together', async () => {
    const store = new ClaimStore();
    const ids = new IdAllocator(store.connection());

    const first = ids.allocate('properties');
    const rest = Array.from({ length: 50 }, () => ids.allocate('properties'));
    const allocated = await Promise.all([first, ...rest]);

    expect(allocated).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    // One read of the highest claim to start from; the first caller's claim, then one claim for
    // the fifty that came while it was under way.
    expect(store.highestReads).toBe(1);
    expect(store.inserts).toBe(2);
  });

  it('claims one at a time for callers who come one at a time', async () => {
    const store = new ClaimStore();
    const ids = new IdAllocator(store.connection());

    for (let i = 1; i <= 3; i++) expect(await ids.allocate('properties')).toBe(i);
    expect(store.inserts).toBe(3);
  });

  it('keeps each kind on its own sequence', async () => {
    const ids = new IdAllocator(new ClaimStore().connection());

    expect(await ids.allocate('properties')).toBe(1);
    expect(await ids.allocate('floor_plans')).toBe(1);
    expect(await ids.allocate('properties')).toBe(2);
  });

  it('starts after the highest id already claimed', async () => {
    const store = new ClaimStore();
    store.kinds.set('properties_ids', new Set([1, 2, 40]));

    expect(await new IdAllocator(store.connection()).allocate('properties')).toBe(41);
  });

  it('never hands out an id that another instance claimed, and moves past it', async () => {
    const store = new ClaimStore();
    const one = new IdAllocator(store.connection());
    const two = new IdAllocator(store.connection());

    const allocated = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).allocate('applications')));

    expect(new Set(allocated).size).toBe(40);
    const claimed = [...store.kinds.get('applications_ids')!].sort((a, b) => a - b);
    expect(claimed).toEqual([...allocated].sort((a, b) => a - b));
    // Each instance hands its ids out in increasing order of asking.
    for (const instance of [0, 1]) {
      const own = allocated.filter((_, i) => i % 2 === instance);
      expect(own).toEqual([...own].sort((a, b) => a - b));
    }
  });

  it('keeps the ids claimed before a lost race within a batch', async () => {
    const store = new ClaimStore();
    store.kinds.set('properties_ids', new Set([1]));
    const ids = new IdAllocator(store.connection());
    await ids.allocate('properties');
    // Another instance takes 5 while this one has 3 as its next candidate.
    store.kinds.get('properties_ids')!.add(5);

    // The first caller claims 3; the next two are claimed together as 4 and 5, and 5 is lost.
    const allocated = await Promise.all([ids.allocate('properties'), ids.allocate('properties'), ids.allocate('properties')]);

    expect(allocated).toEqual([3, 4, 6]);
  });

  it('steps past an id another instance just claimed, reading the highest only when far behind', async () => {
    const store = new ClaimStore();
    const ids = new IdAllocator(store.connection());
    expect(await ids.allocate('properties')).toBe(1);
    const claimed = store.kinds.get('properties_ids')!;

    // Another instance took the next id: one step past it, no read of the highest.
    claimed.add(2);
    expect(await ids.allocate('properties')).toBe(3);
    expect(store.highestReads).toBe(1);

    // Another instance is far ahead: after a few steps, one read of the highest.
    for (let id = 4; id <= 20; id++) claimed.add(id);
    expect(await ids.allocate('properties')).toBe(21);
    expect(store.highestReads).toBe(2);
  });

  it('passes on an error that is not a lost race, then serves the next caller from the same id', async () => {
    const store = new ClaimStore();
    const connection = store.connection();
    let down = true;
    const flaky = {
      collection: (name: string) => {
        const collection = connection.collection(name) as unknown as { insertMany(...args: unknown[]): Promise<void> };
        return {
          ...collection,
          insertMany: async (...args: unknown[]) => {
            if (down) throw new Error('connection refused');
            return collection.insertMany(...args);
          },
        };
      },
    } as unknown as Connection;
    const ids = new IdAllocator(flaky);

    await expect(ids.allocate('properties')).rejects.toThrow('connection refused');
    down = false;
    expect(await ids.allocate('properties')).toBe(1);
  });
});
