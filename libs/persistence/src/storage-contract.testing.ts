import { randomUUID } from 'node:crypto';
import { Connection } from 'mongoose';
import { ClaimStorage } from './claims/claim-storage';
import { ClaimedChange, Storage, Versioned } from './storage';
import { describeBudgetRaces } from './budgets-contract.testing';

/**
 * What every Storage promises, as one suite run against each adapter: the in-memory one in the
 * unit specs, the real database (FerretDB, or MongoDB at MONGODB_URI) in test/. Each case works
 * through several instances at once (several Storages over one database, as several service
 * processes are), and forces the interleavings the blocks exist for: a writer that dies between
 * two writes, a copy written late, takes and returns racing.
 */
export interface StorageHarness {
  /** `count` instances over one fresh database. */
  instances(count: number): Promise<Storage[]>;
  /** One instance over that database whose writes to `collection` fail, as a process dying before them would. */
  failingWritesTo(collection: string): Promise<Storage>;
}

/** A list kept as a versioned record: each change adds one item. */
interface Basket extends Record<string, unknown> {
  items: string[];
  version: number;
  request_key?: string;
}

/** One item added; with `items`, the whole list (a version-only record's claims hold whole states). */
interface BasketChange extends Record<string, unknown> {
  item: string;
  items?: string[];
}

const foldBasket = (state: Basket | null, claim: ClaimedChange<BasketChange>): Basket => ({
  ...state,
  items: claim.change.items ?? [...(state?.items ?? []), claim.change.item],
  version: claim.version,
});

const basketSpec = (copy: 'state' | 'versionOnly' = 'state') => ({
  copies: `baskets_${copy}`,
  claims: `basket_versions_${copy}`,
  idField: 'basket_id',
  unique: { request_key_unique: 'request_key' },
  copy,
  fold: foldBasket,
});

/** Adds `item` to basket `id` through `storage`, reading again after each lost claim. */
async function addItem(storage: Storage, id: number, item: string, copy: 'state' | 'versionOnly' = 'state'): Promise<number> {
  const baskets = storage.versionedRecords<Basket, BasketChange>(basketSpec(copy));
  for (let attempt = 0; attempt < 200; attempt++) {
    const current = await baskets.current(id);
    const whole = copy === 'versionOnly' ? { items: [...(current?.state.items ?? []), item] } : {};
    const next = await baskets.claimNext(id, current, { item, ...whole });
    if (next) return next.version;
  }
  throw new Error(`${item} could not be added`);
}

export function describeStorageContract(adapter: string, harness: () => StorageHarness): void {
  describe(`${adapter}: the storage blocks`, () => {
    const INSTANCES = 6;

    describe('OnceRecords', () => {
      it('lets exactly one of several instances claiming one key at once make it, and all read the winner', async () => {
        const stores = (await harness().instances(INSTANCES)).map((storage) => storage.onceRecords<{ by: number }>('claims'));
        await stores[0].prepare();
        const outcomes = await Promise.all(stores.map((store, by) => store.claimOrRead('k', { by })));
        const winners = outcomes.filter(({ won }) => won);
        expect(winners).toHaveLength(1);
        expect(new Set(outcomes.map(({ record }) => record.by))).toEqual(new Set([winners[0].record.by]));
      });

      it('answers true to exactly one of several instances claiming one key at once, the one stored', async () => {
        const stores = (await harness().instances(INSTANCES)).map((storage) => storage.onceRecords<{ by: number }>('claims'));
        await stores[0].prepare();
        const won = await Promise.all(stores.map((store, by) => store.claim('k', { by })));
        expect(won.filter(Boolean)).toHaveLength(1);
        expect((await stores[1].get('k'))?.by).toBe(won.indexOf(true));
      });

      it('makes a key claimable again once released, and never brings a released claim back by annotating it', async () => {
        const [a, b] = (await harness().instances(2)).map((storage) =>
          storage.onceRecords<{ by: string; outcome?: string }>('claims'),
        );
        await a.prepare();
        expect(await a.claim('k', { by: 'a' })).toBe(true);
        await a.release('k');
        await b.annotate('k', { outcome: 'late' });
        expect(await a.get('k')).toBeNull();
        expect(await b.claim('k', { by: 'b' })).toBe(true);
        expect((await a.get('k'))?.by).toBe('b');
      });

      it('releases a claim only where it matches the condition, saying whether it did', async () => {
        const [a, b] = (await harness().instances(2)).map((storage) => storage.onceRecords<{ use: string }>('uses'));
        await a.prepare();
        await a.claim('k', { use: 'first' });
        expect(await b.releaseWhere('k', { use: 'second' })).toBe(false);
        expect((await a.get('k'))?.use).toBe('first');
        const released = await Promise.all([a.releaseWhere('k', { use: 'first' }), b.releaseWhere('k', { use: 'first' })]);
        expect(released.filter(Boolean)).toHaveLength(1);
        expect(await a.get('k')).toBeNull();
      });

      it('purges only the claims whose expiry has passed', async () => {
        const [store] = (await harness().instances(1)).map((storage) => storage.onceRecords<{ expires_at?: Date }>('marks'));
        await store.prepare();
        await store.claim('old', { expires_at: new Date(1000) });
        await store.claim('new', { expires_at: new Date(Date.now() + 60_000) });
        await store.claim('forever', {});
        expect(await store.purgeExpired(new Date())).toBe(1);
        expect([...(await store.getMany(['old', 'new', 'forever'])).keys()].sort()).toEqual(['forever', 'new']);
      });
    });

    describe('VersionedRecords', () => {
      it.each(['state', 'versionOnly'] as const)(
        'loses no change of several instances changing one %s record at once, and numbers them densely',
        async (copy) => {
          const storages = await harness().instances(INSTANCES);
          const baskets = storages[0].versionedRecords<Basket, BasketChange>(basketSpec(copy));
          await baskets.prepare();
          if (copy === 'state') await baskets.create(1, { items: [], version: 0 });
          const added = storages.flatMap((storage, i) => [0, 1, 2].map((n) => ({ storage, item: `${i}.${n}` })));
          const versions = await Promise.all(added.map(({ storage, item }) => addItem(storage, 1, item, copy)));
          expect([...versions].sort((a, b) => a - b)).toEqual(added.map((_, i) => i + 1));
          for (const storage of storages) {
            const current = await storage.versionedRecords<Basket, BasketChange>(basketSpec(copy)).current(1);
            expect(current?.version).toBe(added.length);
            expect([...current!.state.items].sort()).toEqual(added.map(({ item }) => item).sort());
          }
        },
      );

      it('keeps a change whose writer died before writing the copy, and brings the copy up to date', async () => {
        const test = harness();
        const [reader] = await test.instances(1);
        const baskets = reader.versionedRecords<Basket, BasketChange>(basketSpec());
        await baskets.prepare();
        await baskets.create(7, { items: ['a'], version: 0 });
        const dying = (await test.failingWritesTo('baskets_state')).versionedRecords<Basket, BasketChange>(basketSpec());
        await expect(dying.claimNext(7, await baskets.current(7), { item: 'b' })).rejects.toThrow();
        const seenByAnother = await (await test.instances(1))[0].versionedRecords<Basket, BasketChange>(basketSpec()).current(7);
        expect(seenByAnother).toEqual({ version: 1, state: { items: ['a', 'b'], version: 1 } });
        expect(await addItem(reader, 7, 'c')).toBe(2);
        expect((await baskets.currentMany([7])).get(7)?.state.items).toEqual(['a', 'b', 'c']);
      });

      it('folds in claims past a copy written late over a newer one', async () => {
        const [storage, other] = await harness().instances(2);
        const baskets = storage.versionedRecords<Basket, BasketChange>(basketSpec());
        await baskets.prepare();
        await baskets.create(3, { items: [], version: 0 });
        const first = (await baskets.claimNext(3, await baskets.current(3), { item: 'x' }))!;
        await baskets.claimNext(3, first, { item: 'y' });
        await baskets.writeCopy(3, first);
        const late = other.versionedRecords<Basket, BasketChange>(basketSpec());
        expect((await late.current(3))?.state.items).toEqual(['x', 'y']);
        expect((await late.currentMany([3, 4])).get(3)?.state.items).toEqual(['x', 'y']);
      });

      it.each(['state', 'versionOnly'] as const)(
        'reads a %s record current though another instance changed it since this one read it',
        async (copy) => {
          const [one, two] = await harness().instances(2);
          const baskets = one.versionedRecords<Basket, BasketChange>(basketSpec(copy));
          await baskets.prepare();
          if (copy === 'state') await baskets.create(21, { items: [], version: 0 });
          await addItem(one, 21, 'first', copy);
          expect((await baskets.current(21))?.state.items).toEqual(['first']);
          await addItem(two, 21, 'second', copy);
          expect((await baskets.current(21))?.state.items).toEqual(['first', 'second']);
          const read = await baskets.current(21);
          read!.state.items.push('not stored');
          expect((await baskets.current(21))?.state.items).toEqual(['first', 'second']);
        },
      );

      it('stores a record once per unique field, answering a repeat with the first', async () => {
        const storages = await harness().instances(3);
        const records = storages.map((storage) => storage.versionedRecords<Basket, BasketChange>(basketSpec()));
        await records[0].prepare();
        const stored = await Promise.all(
          records.map((record, i) => record.create(10 + i, { items: [`from ${i}`], version: 0, request_key: 'once' })),
        );
        expect(new Set(stored.map((one) => one.state.items[0])).size).toBe(1);
        expect((await records[1].createdBy('request_key', 'once'))?.state.items).toEqual(stored[0].state.items);
      });

      it('stores claims without their time when told, in the shape records stored so before keep', async () => {
        const [storage, other] = await harness().instances(2);
        const spec = { ...basketSpec(), copies: 'baskets_unstamped', claims: 'basket_versions_unstamped', stampClaims: false };
        const baskets = storage.versionedRecords<Basket, BasketChange>(spec);
        await baskets.prepare();
        await baskets.create(4, { items: [], version: 0 });
        await baskets.claimNext(4, await baskets.current(4), { item: 'a' }, { event_ids: ['e1'], request_key: 'r1' });
        const claim = await other.records<Record<string, unknown>>('basket_versions_unstamped').get('4:1');
        expect(claim).toEqual({ _id: '4:1', basket_id: 4, version: 1, item: 'a', event_ids: ['e1'], request_key: 'r1' });
        const read = other.versionedRecords<Basket, BasketChange>(spec);
        expect(await read.change(4, 1)).toEqual({
          id: 4,
          version: 1,
          change: { item: 'a' },
          at: new Date(0),
          request_key: 'r1',
          event_ids: ['e1'],
        });
        expect((await read.current(4))?.state.items).toEqual(['a']);
      });

      it('reads back each claim as it was, and lets an erasure rewrite one', async () => {
        const [storage] = await harness().instances(1);
        const baskets = storage.versionedRecords<Basket, BasketChange>(basketSpec());
        await baskets.prepare();
        await baskets.create(5, { items: [], version: 0 });
        for (const item of ['a', 'b', 'c']) await addItem(storage, 5, item);
        expect((await baskets.changes(5, 1, 3)).map((claim) => claim.change.item)).toEqual(['a', 'b', 'c']);
        await baskets.rewriteChange(5, 2, { item: 'erased' });
        expect((await baskets.change(5, 2))?.change.item).toBe('erased');
        expect((await baskets.changes(5, 1, 3)).map((claim) => claim.change.item)).toEqual(['a', 'erased', 'c']);
      });
    });

    describe('OrderedLists', () => {
      it('gives appends from several instances at once the positions 1..n, each item once, read newest first', async () => {
        const lists = (await harness().instances(INSTANCES)).map((storage) =>
          storage.orderedLists<string>('lists', { field: 'item' }),
        );
        await lists[0].prepare();
        const items = lists.flatMap((list, i) => Array.from({ length: 8 }, (_, n) => ({ list, item: `${i}.${n}` })));
        const positions = await Promise.all(items.map(({ list, item }) => list.append('l', item)));
        expect([...positions].sort((a, b) => a - b)).toEqual(items.map((_, i) => i + 1));
        expect(await lists[1].head('l')).toBe(items.length);
        const read = await lists[2].read('l', items.length, items.length);
        expect(read.map(({ position }) => position)).toEqual(items.map((_, i) => items.length - i));
        expect(new Set(read.map(({ id }) => id)).size).toBe(items.length);
      });

      it('finds the head past removed entries, and lets instances prepending the same items agree', async () => {
        const [a, b] = (await harness().instances(2)).map((storage) => storage.orderedLists<string>('lists', { field: 'item' }));
        await a.prepare();
        for (const item of ['p', 'q', 'r', 's']) await a.append('m', item);
        expect(await a.remove({ item: { $in: ['r', 's'] } })).toBe(2);
        expect(await b.head('m')).toBe(4);
        expect(await b.append('m', 't')).toBe(5);
        const [one, two] = await Promise.all([a.prepend('m', ['o', 'n']), b.prepend('m', ['o', 'n'])]);
        expect(one).toEqual(two);
        expect(await a.bottom('m')).toBe(Math.min(...one));
      });
    });

    describe('OrderedLists kept in a shape stored before', () => {
      const shaped = {
        field: 'item',
        entryFields: (name: string) => ({ owner: Number(name) }),
        stampEntries: false,
        headHint: 'seq',
      };

      it('writes entries with the fields the shape names and no time, and raises the head hint', async () => {
        const storages = await harness().instances(3);
        const lists = storages.map((storage) => storage.orderedLists<string>('shaped_lists', shaped));
        await lists[0].prepare();
        const items = lists.flatMap((list, i) => Array.from({ length: 5 }, (_, n) => ({ list, item: `${i}.${n}` })));
        const positions = await Promise.all(items.map(({ list, item }) => list.append('7', item)));
        expect([...positions].sort((a, b) => a - b)).toEqual(items.map((_, i) => i + 1));
        const raw = storages[0].records<Record<string, unknown>>('shaped_lists');
        const first = await raw.get('7:1');
        expect(first).toEqual({ _id: '7:1', owner: 7, item: expect.any(String) });
        const hint = await raw.get('7:head');
        expect(hint?.seq).toBeGreaterThanOrEqual(1);
        expect(hint?.seq).toBeLessThanOrEqual(items.length);
        expect(await lists[1].head('7')).toBe(items.length);
      });

      it('finds the head of a list written before, past a hint that lags, and appends after it', async () => {
        const [storage, other] = await harness().instances(2);
        const raw = storage.records<Record<string, unknown>>('shaped_lists_before');
        await raw.prepare();
        for (let position = 1; position <= 40; position++) await raw.insert(`3:${position}`, { owner: 3, item: `i${position}` });
        await raw.insert('3:head', { seq: 9 });
        const list = other.orderedLists<string>('shaped_lists_before', shaped);
        expect(await list.head('3')).toBe(40);
        expect(await list.append('3', 'next')).toBe(41);
        expect((await raw.get('3:head'))?.seq).toBe(41);
        expect(await list.read('3', 41, 2)).toEqual([
          { position: 41, id: 'next' },
          { position: 40, id: 'i40' },
        ]);
      });
    });

    describe('Ids', () => {
      it('hands out ids that are distinct across instances and increasing in each', async () => {
        const storages = await harness().instances(INSTANCES);
        const handedOut = await Promise.all(
          storages.map(async (storage) => {
            const ids = storage.ids();
            const mine = await Promise.all(Array.from({ length: 20 }, () => ids.allocate('things')));
            mine.push(await ids.allocate('things'));
            return mine;
          }),
        );
        const all = handedOut.flat();
        expect(new Set(all).size).toBe(all.length);
        for (const mine of handedOut) expect(mine[mine.length - 1]).toBe(Math.max(...mine));
        expect(Math.min(...all)).toBeGreaterThan(0);
      });
    });

    describe('Budgets', () => {
      it('never grants more than the limit to takes from several instances at once', async () => {
        const budgets = (await harness().instances(INSTANCES)).map((storage) => storage.budgets('budget'));
        await budgets[0].prepare();
        const takes = budgets.flatMap((budget, i) => [0, 1, 2].map((n) => ({ budget, item: `${i}.${n}` })));
        const answers = await Promise.all(takes.map(({ budget, item }) => budget.take('owner', item, 2, 10)));
        const granted = takes.filter((_, i) => answers[i]);
        expect(granted.length).toBeGreaterThan(0);
        expect(granted.length).toBeLessThanOrEqual(5);
        expect(await budgets[0].used('owner')).toBe(granted.length * 2);
        // Gives and takes interleaving: what is held never passes the limit.
        const again = await Promise.all([
          ...granted.map(({ budget, item }) => budget.giveBack('owner', item, 2).then(() => false)),
          ...takes.map(({ budget, item }) => budget.take('owner', `again ${item}`, 2, 10)),
        ]);
        const held = again.filter(Boolean).length * 2;
        expect(held).toBeLessThanOrEqual(10);
        expect(await budgets[1].used('owner')).toBe(held);
      });

      it('grants exactly the limit, not one unit more, to one-unit takes from several instances at once', async () => {
        const budgets = (await harness().instances(INSTANCES)).map((storage) => storage.budgets('budget'));
        await budgets[0].prepare();
        const takes = budgets.flatMap((budget, i) => [0, 1, 2].map((n) => budget.take('one', `${i}.${n}`, 1, 10)));
        expect((await Promise.all(takes)).filter(Boolean)).toHaveLength(10);
        expect(await budgets[2].used('one')).toBe(10);
      });

      it('counts an item taken twice once, and gives back its units once however many ask at once', async () => {
        const budgets = (await harness().instances(INSTANCES)).map((storage) => storage.budgets('budget'));
        await budgets[0].prepare();
        expect(await Promise.all(budgets.slice(0, 3).map((budget) => budget.take('o', 'file', 3, 100)))).toEqual([
          true,
          true,
          true,
        ]);
        expect(await budgets[3].used('o')).toBe(3);
        await budgets[4].take('o', 'other', 2, 100);
        await Promise.all(budgets.map((budget) => budget.giveBack('o', 'file', 3)));
        expect(await budgets[5].used('o')).toBe(2);
        expect(await budgets[0].take('o', 'file', 3, 100)).toBe(false);
        expect(await budgets[1].used('o')).toBe(2);
      });

      describeBudgetRaces((count) => harness().instances(count));
    });
  });
}

/** A harness over real connections: each instance a Storage of its own over `connect()`'s connection to one fresh database. */
export function connectionHarness(connect: (database: string) => Promise<Connection>): StorageHarness {
  const database = `blocks_${randomUUID().slice(0, 8)}`;
  return {
    instances: async (count) => Promise.all(Array.from({ length: count }, async () => new ClaimStorage(await connect(database)))),
    failingWritesTo: async (collection) => new ClaimStorage(failingWrites(await connect(database), collection)),
  };
}

const WRITES = new Set(['insertOne', 'insertMany', 'updateOne', 'deleteOne', 'deleteMany']);

/** `connection` with every write to `collection` failing, as if the process died before it. */
export function failingWrites(connection: Connection, collection: string): Connection {
  return new Proxy(connection, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver);
      return (name: string) => {
        const real = target.collection(name);
        if (name !== collection) return real;
        return new Proxy(real, {
          get(inner, member, innerReceiver) {
            if (typeof member === 'string' && WRITES.has(member)) {
              return () => Promise.reject(new Error(`the process died before writing ${collection}`));
            }
            const value = Reflect.get(inner, member, innerReceiver);
            return typeof value === 'function' ? value.bind(inner) : value;
          },
        });
      };
    },
  });
}

/** A versioned record's state and version as `current` gives them. */
export type { Versioned };
