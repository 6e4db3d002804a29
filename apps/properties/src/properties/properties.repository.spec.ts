import { Model } from 'mongoose';
import { ErrorCode } from '@app/contracts';
import { EventOutbox } from '@app/events';
import { IdAllocator, Idempotency } from '@app/persistence';
import { PropertiesEnvironment } from '../config/properties.environment';
import { FormPresetsService } from '../form-presets/form-presets.service';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { PropertiesService } from './properties.service';
import { PropertyList } from './property-list';
import { toPropertyRepresentation } from './property.mapper';
import { PropertyRecord, stateOf } from './property.schema';

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

/** The properties and property_versions collections in memory, keyed by `_id` alone. */
function storeInMemory() {
  const table = () => {
    const documents = new Map<string, any>();
    return {
      documents,
      findOne: async ({ _id }: { _id: string }) => (documents.has(_id) ? structuredClone(documents.get(_id)) : null),
      insertOne: async (document: { _id: string }) => {
        if (documents.has(document._id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
        documents.set(document._id, structuredClone(document));
      },
      find: ({ _id }: { _id: { $in: string[] } }) => ({
        limit: () => ({
          toArray: async () => _id.$in.filter((key) => documents.has(key)).map((key) => structuredClone(documents.get(key))),
        }),
      }),
      updateOne: async ({ _id }: { _id: string }, { $set }: { $set: object }) => {
        if (documents.has(_id)) documents.set(_id, { ...documents.get(_id), ...structuredClone($set) });
      },
    };
  };
  const properties = table();
  const versions = table();
  const model = {
    db: { db: { collection: () => properties }, collection: () => versions },
    collection: { collectionName: 'properties' },
  } as unknown as Model<PropertyRecord>;
  return { properties, versions, model, repository: new PropertiesRepository(model) };
}

describe('PropertiesRepository versions', () => {
  it('claims the next version once: a second change from the same read loses', async () => {
    const { properties, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
    const read = (await repository.findLive(7, 42))!;
    expect(await repository.commit(read, { ...stateOf(read), city: 'First' })).toBe(true);
    expect(await repository.commit(read, { ...stateOf(read), zip: '11111' })).toBe(false);
    const current = (await repository.findLive(7, 42))!;
    expect([current.city, current.zip, current.version]).toEqual(['First', '', 1]);
  });

  it('applies claimed versions the document does not show yet, and brings it up to date', async () => {
    const { properties, versions, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
    // Two changes whose writers died after their claims, before updating the document.
    versions.documents.set('42:1', { _id: '42:1', property_id: 42, version: 1, state: { ...stateOf(property()), city: 'One' } });
    versions.documents.set('42:2', {
      _id: '42:2',
      property_id: 42,
      version: 2,
      state: { ...stateOf(property()), city: 'One', zip: '22222' },
    });
    const current = (await repository.findLive(7, 42))!;
    expect([current.city, current.zip, current.version]).toEqual(['One', '22222', 2]);
    expect(properties.documents.get('42')).toMatchObject({ city: 'One', zip: '22222', version: 2 });
  });

  it('walks past a document that a late update set back to an older version', async () => {
    const { properties, versions, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property({ version: 1, city: 'One' }) });
    versions.documents.set('42:2', { _id: '42:2', property_id: 42, version: 2, state: { ...stateOf(property()), city: 'Two' } });
    expect((await repository.findLive(7, 42))!.city).toBe('Two');
  });

  it('reads the document and the claim after the version it last saw in one round trip', async () => {
    const { properties, versions, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
    let reading = 0;
    let together = 0;
    for (const table of [properties, versions]) {
      const findOne = table.findOne;
      table.findOne = async (filter) => {
        together = Math.max(together, ++reading);
        await new Promise((resolve) => setImmediate(resolve));
        reading--;
        return findOne(filter);
      };
    }
    expect((await repository.findLive(7, 42))!.version).toBe(0);
    expect(together).toBe(2);
  });

  it('reads on from the document’s version when another process changed the property since', async () => {
    const { properties, versions, model, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
    const other = new PropertiesRepository(model);
    expect((await repository.findLive(7, 42))!.version).toBe(0);
    // Another process changes it twice; its second change is claimed but not yet in the document.
    const first = (await other.findLive(7, 42))!;
    expect(await other.commit(first, { ...stateOf(first), city: 'One' })).toBe(true);
    versions.documents.set('42:2', { _id: '42:2', property_id: 42, version: 2, state: { ...stateOf(first), city: 'Two' } });
    const current = (await repository.findLive(7, 42))!;
    expect([current.city, current.version]).toEqual(['Two', 2]);
  });

  it('sees a deletion claimed as a version, and another client’s property as none', async () => {
    const { properties, versions, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
    expect(await repository.findLive(8, 42)).toBeNull();
    versions.documents.set('42:1', {
      _id: '42:1',
      property_id: 42,
      version: 1,
      state: { ...stateOf(property()), deleted_at: AT },
    });
    expect(await repository.findLive(7, 42)).toBeNull();
    expect((await repository.findCurrent(42))!.deleted_at).toEqual(AT);
  });

  it('reads many live properties of a client together, with the changes their documents do not show yet', async () => {
    const { properties, versions, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
    properties.documents.set('43', { _id: '43', ...property({ id: 43, city: 'Old' }) });
    properties.documents.set('44', { _id: '44', ...property({ id: 44, client_id: 8 }) });
    properties.documents.set('45', { _id: '45', ...property({ id: 45, deleted_at: AT }) });
    properties.documents.set('46', { _id: '46', ...property({ id: 46 }) });
    versions.documents.set('43:1', { _id: '43:1', property_id: 43, version: 1, state: { ...stateOf(property()), city: 'New' } });
    versions.documents.set('46:1', {
      _id: '46:1',
      property_id: 46,
      version: 1,
      state: { ...stateOf(property()), deleted_at: AT },
    });
    const live = await repository.findLiveMany(7, [42, 43, 44, 45, 46, 47]);
    expect([...live.keys()].sort()).toEqual([42, 43]);
    expect([live.get(43)!.city, live.get(43)!.version]).toEqual(['New', 1]);
    expect(await repository.findLiveMany(7, [])).toEqual(new Map());
  });
});

describe('PropertiesService.delete over the repository', () => {
  const env = Object.assign(new PropertiesEnvironment(), { APPLY_BASE_URL: 'https://rentals.example.com' });
  // The events of a change are not what this tests: an outbox that records none.
  const outbox = { record: async () => [], discard: async () => undefined, written: () => undefined } as unknown as EventOutbox;
  const serviceOn = (repository: PropertiesRepository) =>
    new PropertiesService(
      repository,
      {} as IdAllocator,
      {} as Idempotency,
      {} as ClientDefaults,
      {} as PropertyList,
      outbox,
      {} as FormPresetsService,
      env,
    );

  it('answers the redelivery of a delete whose process stopped after claiming it with 200 and the property, not 404', async () => {
    const { properties, repository } = storeInMemory();
    properties.documents.set('42', { _id: '42', ...property() });
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
