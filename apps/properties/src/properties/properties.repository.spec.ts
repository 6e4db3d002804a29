import { ErrorCode } from '@app/contracts';
import { EventOutbox } from '@app/events';
import { Idempotency } from '@app/persistence';
import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { PropertiesEnvironment } from '../config/properties.environment';
import { FormPresetsService } from '../form-presets/form-presets.service';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { PropertiesService } from './properties.service';
import { toPropertyRepresentation } from './property.mapper';
import { PropertyRecord, PropertyState, stateOf } from './property.schema';

const AT = new Date('2026-01-02T03:04:05.678Z');

function property(overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
    id: 42,
    client_id: 7,
    available: true,
    kind: 'multi_family',
    name: 'Elm Court',
    street: '',
    city: '',
    state: '',
    zip: '',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 1,
    background_config_id: 1,
    floor_plans: [{ id: 90, property_id: 42, name: 'Elm Court', beds: null, baths: null, deposit: null, rent: null }],
    created_at: AT,
    updated_at: AT,
    request_key: 'message:1',
    deleted_at: null,
    version: 0,
    ...overrides,
  };
}

// The events of a change are not what this tests: an outbox that records none.
const outbox = { record: async () => [], discard: async () => undefined, written: () => undefined } as unknown as EventOutbox;

/** Repositories over one database in memory, as several instances of the service share one. */
function storeInMemory() {
  const database = new MemoryDatabase();
  const repositoryOf = () => new PropertiesRepository(new MemoryStorage(database), outbox);
  const properties = database.collection('properties');
  const versions = database.collection('property_versions');
  const lists = database.collection('property_list');
  /** Stores what a writer stored: the property document, or the claim of a version. */
  const store = {
    property: (stored: PropertyRecord) => properties.insertOne({ _id: String(stored.id), ...stored }),
    version: (id: number, version: number, state: PropertyState) =>
      versions.insertOne({ _id: `${id}:${version}`, property_id: id, version, state, event_ids: [] }),
  };
  return { database, properties, versions, lists, store, repositoryOf, repository: repositoryOf() };
}

/** A decision that sets `fields`, answering with the property stored. */
const setting = (fields: Partial<PropertyState>) => (current: PropertyRecord) => ({
  state: { ...stateOf(current), ...fields },
  answer: (stored: PropertyRecord) => stored,
  events: [],
});

describe('PropertiesRepository versions', () => {
  it('claims the next version once: a second change from the same read loses, and decides again', async () => {
    const { store, repository, repositoryOf } = storeInMemory();
    await store.property(property());
    const other = repositoryOf();
    const reads: number[] = [];
    await repository.change(7, 42, async (current) => {
      reads.push(current.version);
      // Another change claims the version after this read before this one does.
      if (reads.length === 1) await other.change(7, 42, setting({ city: 'First' }));
      return setting({ zip: '11111' })(current);
    });
    expect(reads).toEqual([0, 1]);
    const current = (await repository.findLive(7, 42))!;
    expect([current.city, current.zip, current.version]).toEqual(['First', '11111', 2]);
  });

  it('applies claimed versions the document does not show yet, and brings it up to date', async () => {
    const { properties, store, repository } = storeInMemory();
    await store.property(property());
    // Two changes whose writers died after their claims, before updating the document.
    await store.version(42, 1, { ...stateOf(property()), city: 'One' });
    await store.version(42, 2, { ...stateOf(property()), city: 'One', zip: '22222' });
    const current = (await repository.findLive(7, 42))!;
    expect([current.city, current.zip, current.version]).toEqual(['One', '22222', 2]);
    expect(properties.documents.get('42')).toMatchObject({ city: 'One', zip: '22222', version: 2 });
  });

  it('walks past a document that a late update set back to an older version', async () => {
    const { store, repository } = storeInMemory();
    await store.property(property({ version: 1, city: 'One' }));
    await store.version(42, 2, { ...stateOf(property()), city: 'Two' });
    expect((await repository.findLive(7, 42))!.city).toBe('Two');
  });

  it('reads a property it read lately in one round trip: the claim after the version it saw', async () => {
    const { database, store, repository } = storeInMemory();
    await store.property(property());
    expect((await repository.findLive(7, 42))!.version).toBe(0);
    const before = database.counts();
    expect((await repository.findLive(7, 42))!.version).toBe(0);
    expect(database.counts().reads - before.reads).toBe(1);
  });

  it('reads on from the document’s version when another process changed the property since', async () => {
    const { store, repository, repositoryOf } = storeInMemory();
    await store.property(property());
    const other = repositoryOf();
    expect((await repository.findLive(7, 42))!.version).toBe(0);
    // Another process changes it twice; its second change is claimed but not yet in the document.
    const first = await other.change(7, 42, setting({ city: 'One' }));
    await store.version(42, 2, { ...stateOf(first), city: 'Two' });
    const current = (await repository.findLive(7, 42))!;
    expect([current.city, current.version]).toEqual(['Two', 2]);
  });

  it('sees a deletion claimed as a version, and another client’s property as none', async () => {
    const { store, repository } = storeInMemory();
    await store.property(property());
    expect(await repository.findLive(8, 42)).toBeNull();
    await store.version(42, 1, { ...stateOf(property()), deleted_at: AT });
    expect(await repository.findLive(7, 42)).toBeNull();
    expect((await repository.find(42))!.deleted_at).toEqual(AT);
  });

  it('reads many live properties of a client together, with the changes their documents do not show yet', async () => {
    const { store, repository } = storeInMemory();
    await store.property(property());
    await store.property(property({ id: 43, city: 'Old' }));
    await store.property(property({ id: 44, client_id: 8 }));
    await store.property(property({ id: 45, deleted_at: AT }));
    await store.property(property({ id: 46 }));
    await store.version(43, 1, { ...stateOf(property()), city: 'New' });
    await store.version(46, 1, { ...stateOf(property()), deleted_at: AT });
    const live = await repository.findLiveMany(7, [42, 43, 44, 45, 46, 47]);
    expect([...live.keys()].sort()).toEqual([42, 43]);
    expect([live.get(43)!.city, live.get(43)!.version]).toEqual(['New', 1]);
    expect(await repository.findLiveMany(7, [])).toEqual(new Map());
  });

  it('stores a change’s claim in the shape the previous release reads: the whole state, no time', async () => {
    const { versions, store, repository } = storeInMemory();
    await store.property(property());
    await repository.change(7, 42, setting({ city: 'One' }), 'message:m-1');
    expect(versions.documents.get('42:1')).toEqual({
      _id: '42:1',
      property_id: 42,
      version: 1,
      state: { ...stateOf(property()), city: 'One' },
      event_ids: [],
      request_key: 'message:m-1',
    });
  });
});

describe('PropertiesRepository lists', () => {
  const create = (repository: PropertiesRepository, clientId: number, id: number) =>
    repository.create(property({ id, client_id: clientId, request_key: `message:${id}` }), []);

  it('gives each client gapless positions from 1, also to concurrent appends', async () => {
    const { lists, repository } = storeInMemory();
    await Promise.all(Array.from({ length: 12 }, (_, i) => create(repository, 7, 100 + i)));
    const positions = [...lists.documents.keys()].filter((key) => key.startsWith('7:') && key !== '7:head');
    expect(positions.map((key) => Number(key.slice(2))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    await create(repository, 8, 500);
    expect(lists.documents.get('8:1')).toEqual({ _id: '8:1', client_id: 8, property_id: 500 });
    expect(await repository.newestPosition(7)).toBe(12);
  });

  it('claims the positions of appends that come together in one insert, in the order they came', async () => {
    const { lists, repository } = storeInMemory();

    await Promise.all(Array.from({ length: 32 }, (_, i) => create(repository, 7, 100 + i)));

    const listed = (await repository.listed(7, 32, 32)).properties;
    expect(listed.map(({ position, property: { id } }) => [position, id])).toEqual(
      Array.from({ length: 32 }, (_, i) => [32 - i, 131 - i]),
    );
    // The first append's claim, then one for the 31 that came while it was under way.
    expect(lists.writes - lists.updates).toBe(2);
    expect(lists.documents.get('7:head')).toEqual({ _id: '7:head', seq: 32 });
    // The next append starts from where this process left off, without reading the highest again.
    const reads = lists.reads;
    await create(repository, 7, 200);
    expect(lists.documents.get('7:33')).toMatchObject({ property_id: 200 });
    expect(lists.reads).toBe(reads);
  });

  it('keeps positions gapless and distinct with several processes appending at once', async () => {
    const { lists, repositoryOf } = storeInMemory();
    const repositories = [repositoryOf(), repositoryOf(), repositoryOf()];

    await Promise.all(Array.from({ length: 90 }, (_, i) => create(repositories[i % 3], 7, 100 + i)));

    const entries = [...lists.documents.values()].filter(({ _id }) => _id !== '7:head');
    expect(entries.map(({ _id }) => Number(String(_id).slice(2))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 90 }, (_, i) => i + 1),
    );
    expect(new Set(entries.map(({ property_id }) => property_id)).size).toBe(90);
  });

  it('reads positions from the newest down, and never another client’s property', async () => {
    const { lists, store, repository } = storeInMemory();
    for (const id of [10, 11, 12]) await create(repository, 7, id);
    await store.property(property({ id: 99, client_id: 9 }));
    await lists.insertOne({ _id: '7:4', client_id: 9, property_id: 99 });
    const page = await repository.listed(7, 4, 10);
    expect(page.read).toBe(4);
    expect(page.properties.map(({ position, property: { id } }) => ({ position, id }))).toEqual([
      { position: 3, id: 12 },
      { position: 2, id: 11 },
      { position: 1, id: 10 },
    ]);
    expect((await repository.listed(7, 2, 1)).properties.map(({ property: { id } }) => id)).toEqual([11]);
    expect(await repository.listed(7, 0, 5)).toEqual({ read: 0, properties: [] });
  });

  it('finds the highest position past a head hint that lags, in few reads', async () => {
    const { lists, repository } = storeInMemory();
    for (let seq = 1; seq <= 1000; seq++) await lists.insertOne({ _id: `3:${seq}`, client_id: 3, property_id: seq });
    await lists.insertOne({ _id: '3:head', seq: 10 });
    const before = lists.reads;
    expect(await repository.newestPosition(3)).toBe(1000);
    expect(lists.reads - before).toBeLessThan(25);
    expect(await repository.newestPosition(4)).toBe(0);
  });
});

describe('PropertiesService.delete over the repository', () => {
  const env = Object.assign(new PropertiesEnvironment(), { APPLY_BASE_URL: 'https://rentals.example.com' });
  const serviceOn = (repository: PropertiesRepository) =>
    new PropertiesService(repository, {} as Idempotency, {} as ClientDefaults, {} as FormPresetsService, env);

  it('answers the redelivery of a delete whose process stopped after claiming it with 200 and the property, not 404', async () => {
    const { properties, store, repository } = storeInMemory();
    await store.property(property());
    const service = serviceOn(repository);
    // The deletion is claimed, then the process stops before the document is updated and the answer sent.
    jest.spyOn(properties, 'updateOne').mockRejectedValueOnce(new Error('process stopped'));
    await expect(service.delete(7, 42, undefined, 'message:m-1')).rejects.toThrow('process stopped');

    const redelivered = await service.delete(7, 42, undefined, 'message:m-1');

    expect(redelivered).toEqual(toPropertyRepresentation(property(), 'https://rentals.example.com'));
    expect(await repository.findLive(7, 42)).toBeNull();
    // Another request to delete it, or another client's, finds nothing.
    await expect(service.delete(7, 42, undefined, 'message:m-2')).rejects.toMatchObject({ code: ErrorCode.PROPERTY_NOT_FOUND });
    await expect(service.delete(8, 42, undefined, 'message:m-1')).rejects.toMatchObject({ code: ErrorCode.PROPERTY_NOT_FOUND });
  });
});
