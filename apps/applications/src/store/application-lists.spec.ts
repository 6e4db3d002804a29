import { ApplicationLists } from './application-lists';
import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';

describe('ApplicationLists', () => {
  it('gives each list its own dense run of positions: the client’s and each property’s', async () => {
    const index = new ApplicationLists(new MemoryStorage());
    for (const [applicationId, propertyId] of [
      [10, 1],
      [11, 2],
      [12, 1],
    ]) {
      await index.add(7, propertyId, applicationId);
    }

    expect(await index.head({ clientId: 7 })).toBe(3);
    expect(await index.head({ clientId: 7, propertyId: 1 })).toBe(2);
    expect(await index.head({ clientId: 7, propertyId: 2 })).toBe(1);
    expect(await index.head({ clientId: 8 })).toBe(0);
    expect(await index.read({ clientId: 7 }, 3, 25)).toEqual([
      { position: 3, application_id: 12 },
      { position: 2, application_id: 11 },
      { position: 1, application_id: 10 },
    ]);
    expect(await index.read({ clientId: 7, propertyId: 1 }, 2, 1)).toEqual([{ position: 2, application_id: 12 }]);
  });

  it('keeps positions dense and distinct when two instances append at once', async () => {
    const database = new MemoryDatabase();
    const instances = [new ApplicationLists(new MemoryStorage(database)), new ApplicationLists(new MemoryStorage(database))];

    await Promise.all(Array.from({ length: 60 }, (_, i) => instances[i % 2].add(1, 5, 100 + i)));

    const keys = [...database.collection('application_index').documents.keys()];
    const positions = (list: string) =>
      keys
        .filter((key) => key.startsWith(`${list}:`))
        .map((key) => Number(key.slice(list.length + 1)))
        .sort((a, b) => a - b);
    expect(positions('c1')).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(positions('p1:5')).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const listed = (await instances[0].read({ clientId: 1 }, 60, 100)).map((entry) => entry.application_id);
    expect(listed.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => 100 + i));
  });

  it('finds the head of a long list from a fresh instance in a few reads by _id', async () => {
    const database = new MemoryDatabase();
    const writer = new ApplicationLists(new MemoryStorage(database));
    for (let i = 1; i <= 1000; i++) await writer.add(3, 9, i);

    const entries = database.collection('application_index');
    const reader = new ApplicationLists(new MemoryStorage(database));
    const before = entries.reads;
    expect(await reader.head({ clientId: 3 })).toBe(1000);
    // Doubling up to 1024, then halving back: about 2 log2(1000) reads, not 1000.
    expect(entries.reads - before).toBeLessThanOrEqual(22);

    // Once known, the head costs one read while nothing new came, and a few when others added.
    const known = entries.reads;
    expect(await reader.head({ clientId: 3 })).toBe(1000);
    expect(entries.reads - known).toBe(1);
    await writer.add(3, 9, 1001);
    expect(await reader.head({ clientId: 3 })).toBe(1001);
  });

  it('reads a page from any position down, and nothing below position 1', async () => {
    const index = new ApplicationLists(new MemoryStorage());
    for (let i = 1; i <= 5; i++) await index.add(1, 1, i * 10);

    expect((await index.read({ clientId: 1 }, 4, 2)).map((e) => e.position)).toEqual([4, 3]);
    expect((await index.read({ clientId: 1 }, 2, 10)).map((e) => e.application_id)).toEqual([20, 10]);
    expect(await index.read({ clientId: 1 }, 0, 10)).toEqual([]);
  });

  it('reads a page of positions in one read of their keys, leaving out positions not yet written', async () => {
    const database = new MemoryDatabase();
    const index = new ApplicationLists(new MemoryStorage(database));
    for (let i = 1; i <= 30; i++) await index.add(1, 1, i);
    const entries = database.collection('application_index');
    entries.documents.delete('c1:27');

    const before = entries.reads;
    const page = await index.read({ clientId: 1 }, 30, 25);
    expect(entries.reads - before).toBe(1);
    expect(page.map((e) => e.position)).toEqual(Array.from({ length: 25 }, (_, i) => 30 - i).filter((p) => p !== 27));
    expect(page.map((e) => e.application_id)).toEqual(page.map((e) => e.position));
  });

  it('claims the appends that come while one is under way together, in the order they came', async () => {
    const database = new MemoryDatabase();
    const index = new ApplicationLists(new MemoryStorage(database));
    await index.add(1, 1, 1);
    const entries = database.collection('application_index');
    const before = entries.batches;

    await Promise.all(Array.from({ length: 40 }, (_, i) => index.add(1, 1, 100 + i)));

    // The first append's two inserts (client and property list), then one more each for the 39 that waited.
    expect(entries.batches - before).toBe(4);
    const listed = await index.read({ clientId: 1 }, 41, 41);
    expect(listed.map((entry) => entry.application_id)).toEqual([...Array.from({ length: 40 }, (_, i) => 139 - i), 1]);
  });

  it('keeps what a batch claimed before a position another instance took, and moves past it', async () => {
    const database = new MemoryDatabase();
    const index = new ApplicationLists(new MemoryStorage(database));
    await index.add(1, 1, 1);
    // Another instance takes position 3 while this one knows only of 1.
    await database.collection('application_index').insertOne({ _id: 'c1:3', application_id: 50 });

    await Promise.all([index.add(1, 1, 2), index.add(1, 1, 3), index.add(1, 1, 4)]);

    const listed = await index.read({ clientId: 1 }, 6, 6);
    expect(listed.map((entry) => [entry.position, entry.application_id])).toEqual([
      [5, 4],
      [4, 3],
      [3, 50],
      [2, 2],
      [1, 1],
    ]);
  });
});
