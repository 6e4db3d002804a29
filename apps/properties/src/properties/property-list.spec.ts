import { Connection } from 'mongoose';
import { PropertyList } from './property-list';

/** The property_list collection in memory: a unique `_id`, point reads and `$max` upserts. */
function collectionInMemory() {
  const documents = new Map<string, Record<string, unknown>>();
  let reads = 0;
  let inserts = 0;
  const collection = {
    insertOne: async (document: { _id: string }) => {
      inserts++;
      await new Promise((resolve) => setImmediate(resolve));
      if (documents.has(document._id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
      documents.set(document._id, document);
    },
    // Ordered: stops at the first duplicate, saying how many it inserted before.
    insertMany: async (batch: Array<{ _id: string }>, options: { ordered?: boolean }) => {
      expect(options.ordered).toBe(true);
      inserts++;
      await new Promise((resolve) => setImmediate(resolve));
      for (const [insertedCount, document] of batch.entries()) {
        if (documents.has(document._id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000, insertedCount });
        documents.set(document._id, document);
      }
    },
    findOne: async ({ _id }: { _id: string }) => {
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
      return documents.get(_id) ?? null;
    },
    find: ({ _id }: { _id: { $in: string[] } }) => ({
      limit: () => ({
        toArray: async () => {
          reads++;
          await new Promise((resolve) => setImmediate(resolve));
          return _id.$in.filter((key) => documents.has(key)).map((key) => documents.get(key));
        },
      }),
    }),
    updateOne: async ({ _id }: { _id: string }, { $max }: { $max: { seq: number } }) => {
      const head = documents.get(_id) as { seq: number } | undefined;
      documents.set(_id, { _id, seq: Math.max(head?.seq ?? 0, $max.seq) });
    },
  };
  const connection = { collection: () => collection } as unknown as Connection;
  return { documents, connection, reads: () => reads, inserts: () => inserts };
}

describe('PropertyList', () => {
  it('gives each client gapless positions from 1, also to concurrent appends', async () => {
    const store = collectionInMemory();
    const list = new PropertyList(store.connection);
    const positions = await Promise.all(Array.from({ length: 12 }, (_, i) => list.append(7, 100 + i)));
    expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await list.append(8, 500)).toBe(1);
    expect(await list.highest(7)).toBe(12);
  });

  it('claims the positions of appends that come together in one insert, in the order they came', async () => {
    const store = collectionInMemory();
    const list = new PropertyList(store.connection);

    const positions = await Promise.all(Array.from({ length: 32 }, (_, i) => list.append(7, 100 + i)));

    expect(positions).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    // The first append's claim, then one for the 31 that came while it was under way.
    expect(store.inserts()).toBe(2);
    expect(store.documents.get('7:head')).toEqual({ _id: '7:head', seq: 32 });
    // The next append starts from where this process left off, without reading the highest again.
    const reads = store.reads();
    expect(await list.append(7, 200)).toBe(33);
    expect(store.reads()).toBe(reads);
  });

  it('keeps positions gapless and distinct with several processes appending at once', async () => {
    const store = collectionInMemory();
    const lists = [new PropertyList(store.connection), new PropertyList(store.connection), new PropertyList(store.connection)];

    const positions = await Promise.all(Array.from({ length: 90 }, (_, i) => lists[i % 3].append(7, 100 + i)));

    expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    for (const [i, seq] of positions.entries()) expect(store.documents.get(`7:${seq}`)).toMatchObject({ property_id: 100 + i });
  });

  it('reads positions from the newest down, and never another client’s entry', async () => {
    const store = collectionInMemory();
    const list = new PropertyList(store.connection);
    for (const id of [10, 11, 12]) await list.append(7, id);
    store.documents.set('7:4', { _id: '7:4', client_id: 9, property_id: 99 });
    expect(await list.at(7, 4, 10)).toEqual([
      { seq: 4, propertyId: null },
      { seq: 3, propertyId: 12 },
      { seq: 2, propertyId: 11 },
      { seq: 1, propertyId: 10 },
    ]);
    expect(await list.at(7, 2, 1)).toEqual([{ seq: 2, propertyId: 11 }]);
    expect(await list.at(7, 0, 5)).toEqual([]);
  });

  it('finds the highest position past a head hint that lags, in few reads', async () => {
    const store = collectionInMemory();
    const list = new PropertyList(store.connection);
    for (let seq = 1; seq <= 1000; seq++) store.documents.set(`3:${seq}`, { _id: `3:${seq}`, client_id: 3, property_id: seq });
    store.documents.set('3:head', { _id: '3:head', seq: 10 });
    const before = store.reads();
    expect(await list.highest(3)).toBe(1000);
    expect(store.reads() - before).toBeLessThan(25);
    expect(await list.highest(4)).toBe(0);
  });
});
