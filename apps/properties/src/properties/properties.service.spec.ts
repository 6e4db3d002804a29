import { Test } from '@nestjs/testing';
import { ErrorCode, parsePageQuery, PropertyInput, ServiceError } from '@app/contracts';
import { EventOutbox } from '@app/events';
import { CreateScope, Idempotency } from '@app/persistence';
import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { PropertiesEnvironment } from '../config/properties.environment';
import { FormPresetsService } from '../form-presets/form-presets.service';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { PropertiesService } from './properties.service';
import { PropertyRecord, stateOf } from './property.schema';

const CLIENT = 7;

function storedProperty(overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  const at = new Date('2026-03-01T12:00:00.000Z');
  return {
    id: 3,
    client_id: CLIENT,
    available: true,
    kind: 'multi_family',
    name: 'Maple Court',
    street: '1 Main St',
    city: 'Cambridge',
    state: 'MA',
    zip: '02139',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 11,
    background_config_id: 12,
    floor_plans: [{ id: 5, property_id: 3, name: 'Maple Court', beds: null, baths: null, deposit: null, rent: null }],
    created_at: at,
    updated_at: at,
    request_key: 'message:m-1',
    deleted_at: null,
    version: 0,
    ...overrides,
  };
}

function input(fields: Partial<PropertyInput>): PropertyInput {
  return Object.assign(new PropertyInput(), fields);
}

describe('PropertiesService', () => {
  let database: MemoryDatabase;
  let repository: PropertiesRepository;
  /** Another instance of the service's, changing the same properties. */
  let other: PropertiesRepository;
  let outbox: jest.Mocked<Pick<EventOutbox, 'record' | 'discard' | 'written'>>;
  let idempotency: jest.Mocked<Pick<Idempotency, 'run'>>;
  let service: PropertiesService;
  /** The presets each client may name: 1 and 11 for every client here. */
  const presets = { usable: jest.fn(async (_clientId: number, id: number) => id === 1 || id === 11) };

  const stored = (id: number) => database.collection('properties').documents.get(String(id));
  const claim = (id: number, version: number) => database.collection('property_versions').documents.get(`${id}:${version}`);
  const store = (property: PropertyRecord) =>
    database.collection('properties').insertOne({ _id: String(property.id), ...property, event_ids: [] });
  /** Has the other instance change the property after each of this one's next `times` reads, so that its claim loses. */
  const changedAfterRead = (times: number, fields: Partial<PropertyRecord> = {}) => {
    const findLive = repository.findLive.bind(repository);
    let left = times;
    return jest.spyOn(repository, 'findLive').mockImplementation(async (clientId, id) => {
      const read = await findLive(clientId, id);
      if (read && left-- > 0) {
        await other.change(clientId, id, (current) => ({
          state: { ...stateOf(current), ...fields, updated_at: new Date() },
          answer: () => null,
          events: [],
        }));
      }
      return read;
    });
  };

  beforeEach(async () => {
    database = new MemoryDatabase();
    outbox = {
      record: jest.fn().mockResolvedValue(['evt_1']),
      discard: jest.fn().mockResolvedValue(undefined),
      written: jest.fn(),
    };
    repository = new PropertiesRepository(new MemoryStorage(database), outbox as unknown as EventOutbox);
    other = new PropertiesRepository(new MemoryStorage(database), {
      record: async () => [],
      discard: async () => undefined,
      written: () => undefined,
    } as unknown as EventOutbox);
    await repository.onModuleInit();
    jest.spyOn(repository, 'newIds').mockResolvedValue({ propertyId: 41, floorPlanId: 90 });
    idempotency = { run: jest.fn() };
    idempotency.run.mockImplementation((_scope, work) => work('key:token-1', false));
    const env = Object.assign(new PropertiesEnvironment(), { APPLY_BASE_URL: 'https://rentals.example.com/' });

    const module = await Test.createTestingModule({
      providers: [
        PropertiesService,
        { provide: PropertiesRepository, useValue: repository },
        { provide: Idempotency, useValue: idempotency },
        { provide: ClientDefaults, useValue: new ClientDefaults({ form_preset_id: 1, background_config_id: 2 }, '7:11:12') },
        { provide: PropertiesEnvironment, useValue: env },
        { provide: FormPresetsService, useValue: presets },
      ],
    }).compile();
    service = module.get(PropertiesService);
  });

  describe('create', () => {
    it('does the work once per request: under the idempotency scope of the client, key and body', async () => {
      const body = input({ name: 'Maple Court' });
      await service.create(CLIENT, body, { key: 'order-1', messageId: 'm-1' });

      expect(idempotency.run).toHaveBeenCalledTimes(1);
      const scope: CreateScope = idempotency.run.mock.calls[0][0];
      expect(scope).toEqual({ key: 'order-1', messageId: 'm-1', clientId: CLIENT, body });
    });

    it('stores the property with its defaults, one floor plan named after it, and the request key', async () => {
      const insert = jest.spyOn(database.collection('properties'), 'insertOne');
      const append = jest.spyOn(database.collection('property_list'), 'insertMany');
      const before = Date.now();
      await service.create(CLIENT, input({ name: 'Maple Court' }), { key: undefined, messageId: 'm-1' });

      expect(repository.newIds).toHaveBeenCalledTimes(1);
      expect(insert).toHaveBeenCalledTimes(1);
      const record = stored(41)!;
      expect(record).toEqual({
        _id: '41',
        id: 41,
        client_id: CLIENT,
        available: true,
        kind: 'multi_family',
        name: 'Maple Court',
        street: '',
        city: '',
        state: '',
        zip: '',
        manager_name: '',
        manager_email: '',
        manager_phone: '',
        invitation_only: false,
        invitation_only_message: '',
        form_preset_id: 11,
        background_config_id: 12,
        floor_plans: [{ id: 90, property_id: 41, name: 'Maple Court', beds: null, baths: null, deposit: null, rent: null }],
        created_at: record.created_at,
        updated_at: record.created_at,
        request_key: 'key:token-1',
        deleted_at: null,
        version: 0,
        event_ids: ['evt_1'],
      });
      expect((record.created_at as Date).getTime()).toBeGreaterThanOrEqual(before);
      // Its event is recorded before the write that carries its id.
      expect(outbox.record).toHaveBeenCalledWith(CLIENT, { collection: 'properties', key: '41' }, [
        { event: 'property.created', data: { property_id: 41 } },
      ]);
      expect(outbox.record.mock.invocationCallOrder[0]).toBeLessThan(insert.mock.invocationCallOrder[0]);
      // Listed before it is stored, so that a stored property is always in the list.
      expect(database.collection('property_list').documents.get('7:1')).toEqual({
        _id: '7:1',
        client_id: CLIENT,
        property_id: 41,
      });
      expect(append.mock.invocationCallOrder[0]).toBeLessThan(insert.mock.invocationCallOrder[0]);
      // Said written once the insert that carries it succeeded: the relay publishes it at once.
      expect(outbox.written).toHaveBeenCalledWith(['evt_1']);
      expect(outbox.written.mock.invocationCallOrder[0]).toBeGreaterThan(insert.mock.invocationCallOrder[0]);
    });

    it('keeps every value the request gave', async () => {
      const given = {
        name: 'Birch House',
        available: false,
        kind: 'single_family' as const,
        street: '2 Elm St',
        city: 'Boston',
        state: 'MA',
        zip: '02110',
        invitation_only: true,
        invitation_only_message: 'Ask the office',
      };
      await service.create(CLIENT, input(given), { messageId: 'm-1' });
      expect(stored(41)).toMatchObject(given);
    });

    it("gives another client's property the form preset and background config of the fallback", async () => {
      await service.create(8, input({ name: 'Maple Court' }), { messageId: 'm-1' });
      expect(stored(41)).toMatchObject({ client_id: 8, form_preset_id: 1, background_config_id: 2 });
    });

    it('answers with the representation of what is stored, the one an earlier try stored included', async () => {
      await store(storedProperty({ id: 12, name: 'Stored First', request_key: 'key:token-1' }));
      const created = await service.create(CLIENT, input({ name: 'Maple Court' }), { messageId: 'm-1' });
      expect(created).toMatchObject({
        id: 12,
        name: 'Stored First',
        application_url: 'https://rentals.example.com/properties/12/apply',
      });
      // The earlier try's record carries that try's event: this try's is never said written.
      expect(outbox.written).not.toHaveBeenCalled();
      expect(outbox.discard).toHaveBeenCalledWith(['evt_1']);
    });

    it('allocates and stores nothing when the idempotency check refuses', async () => {
      idempotency.run.mockRejectedValue(ServiceError.idempotencyKeyReused());
      const failure = service.create(CLIENT, input({ name: 'Maple Court' }), { key: 'order-1', messageId: 'm-1' });
      await expect(failure).rejects.toMatchObject({ code: ErrorCode.IDEMPOTENCY_KEY_REUSED });
      expect(repository.newIds).not.toHaveBeenCalled();
      expect(database.collection('properties').documents.size).toBe(0);
    });
  });

  describe('get', () => {
    it("answers with the client's live property", async () => {
      await store(storedProperty());
      const findLive = jest.spyOn(repository, 'findLive');
      const property = await service.get(CLIENT, 3);
      expect(findLive).toHaveBeenCalledWith(CLIENT, 3);
      expect(property).toMatchObject({
        id: 3,
        name: 'Maple Court',
        application_url: 'https://rentals.example.com/properties/3/apply',
      });
    });

    it('raises PROPERTY_NOT_FOUND when the repository has no live property of the client', async () => {
      await expect(service.get(CLIENT, 3)).rejects.toEqual(ServiceError.propertyNotFound(3));
      await expect(service.get(CLIENT, 3)).rejects.toMatchObject({
        code: ErrorCode.PROPERTY_NOT_FOUND,
        message: 'property 3 cannot be found',
      });
    });
  });

  describe('delete', () => {
    it('claims the next version as deleted now and answers with the representation it had', async () => {
      const property = storedProperty({ version: 4 });
      await store(property);
      const before = Date.now();
      const answer = await service.delete(CLIENT, 3);

      expect(database.collection('property_versions').documents.size).toBe(1);
      const { state } = claim(3, 5) as unknown as { state: PropertyRecord };
      expect(state.deleted_at!.getTime()).toBeGreaterThanOrEqual(before);
      expect(state.updated_at).toEqual(property.updated_at);
      expect(answer).toMatchObject({ id: 3, name: 'Maple Court' });
    });

    it('raises PROPERTY_NOT_FOUND when there was no live property of the client to delete', async () => {
      await expect(service.delete(CLIENT, 3)).rejects.toMatchObject({
        code: ErrorCode.PROPERTY_NOT_FOUND,
        message: 'property 3 cannot be found',
      });
      expect(database.collection('property_versions').documents.size).toBe(0);
    });

    it('reads again after losing the version to another change, and finds the property gone', async () => {
      await store(storedProperty());
      const findLive = changedAfterRead(1, { deleted_at: new Date() });
      await expect(service.delete(CLIENT, 3)).rejects.toMatchObject({ code: ErrorCode.PROPERTY_NOT_FOUND });
      expect(findLive).toHaveBeenCalledTimes(2);
    });

    it('refuses a stale If-Match with 412, changing nothing', async () => {
      await store(storedProperty());
      await expect(service.delete(CLIENT, 3, '"stale"')).rejects.toMatchObject({ code: ErrorCode.PRECONDITION_FAILED });
      expect(database.collection('property_versions').documents.size).toBe(0);
      expect(outbox.record).not.toHaveBeenCalled();
    });

    it('records property.deleted against the claim it makes, which carries the event ids', async () => {
      await store(storedProperty({ version: 4 }));
      await service.delete(CLIENT, 3);
      expect(outbox.record).toHaveBeenCalledWith(CLIENT, { collection: 'property_versions', key: '3:5' }, [
        { event: 'property.deleted', data: { property_id: 3 } },
      ]);
      expect(claim(3, 5)?.event_ids).toEqual(['evt_1']);
    });

    it('discards the events of a claim it lost, and records new ones for the next try', async () => {
      await store(storedProperty());
      changedAfterRead(1);
      await service.delete(CLIENT, 3);
      expect(outbox.discard).toHaveBeenCalledWith(['evt_1']);
      expect(outbox.record.mock.calls.map(([, witness]) => witness.key)).toEqual(['3:1', '3:2']);
    });
  });

  describe('form_preset_id', () => {
    it('refuses on create a preset the client cannot name, before anything is allocated', async () => {
      const refusal = service.create(CLIENT, input({ name: 'Maple Court', form_preset_id: 5 }), { messageId: 'm-1' });
      await expect(refusal).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message: 'property.form_preset_id must name one of your form presets or a shipped one: form preset 5 cannot be found',
        details: [{ field: 'property.form_preset_id', message: expect.stringContaining('form preset 5 cannot be found') }],
      });
      expect(repository.newIds).not.toHaveBeenCalled();
    });

    it('refuses on create a configured default the client cannot name, saying where it came from', async () => {
      presets.usable.mockResolvedValueOnce(false);
      await expect(service.create(CLIENT, input({ name: 'Maple Court' }), { messageId: 'm-1' })).rejects.toMatchObject({
        message: 'property.form_preset_id is required: the default form preset configured for this client (11) cannot be found',
      });
      expect(presets.usable).toHaveBeenLastCalledWith(CLIENT, 11);
    });

    it('refuses on update a preset the client cannot name, and stores one it can', async () => {
      await store(storedProperty());
      await expect(service.update(CLIENT, 3, { form_preset_id: 5 })).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
      expect(database.collection('property_versions').documents.size).toBe(0);
      await service.update(CLIENT, 3, { form_preset_id: 1 });
      expect(claim(3, 1)?.state).toMatchObject({ form_preset_id: 1 });
    });
  });

  describe('update', () => {
    it('claims the next version with the changed state and answers with the new representation', async () => {
      await store(storedProperty({ version: 2 }));
      const property = await service.update(CLIENT, 3, { city: 'Boston' });
      expect(claim(3, 3)?.state).toMatchObject({ city: 'Boston', street: '1 Main St' });
      expect(property).toMatchObject({ id: 3, city: 'Boston', street: '1 Main St' });
      expect(outbox.record.mock.calls[0][2]).toEqual([{ event: 'property.updated', data: { property_id: 3 } }]);
    });

    it('decides again on the property as another change left it, keeping both changes', async () => {
      await store(storedProperty());
      changedAfterRead(1, { zip: '99999' });
      const property = await service.update(CLIENT, 3, { city: 'Boston' });
      expect(claim(3, 2)?.state).toMatchObject({ city: 'Boston', zip: '99999' });
      expect(property).toMatchObject({ city: 'Boston', zip: '99999' });
    });

    it('gives up with 503 when the property never stops changing under it', async () => {
      await store(storedProperty());
      changedAfterRead(Infinity);
      await expect(service.update(CLIENT, 3, { city: 'Boston' })).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE });
    });
  });

  describe('lookup', () => {
    it("answers with the id and name of the client's live property", async () => {
      await store(storedProperty());
      const findLive = jest.spyOn(repository, 'findLive');
      await expect(service.lookup(CLIENT, 3)).resolves.toEqual({ id: 3, name: 'Maple Court' });
      expect(findLive).toHaveBeenCalledWith(CLIENT, 3);
    });

    it('answers null, raising nothing, when the client has no such live property', async () => {
      await expect(service.lookup(CLIENT, 3)).resolves.toBeNull();
    });
  });
});

const AT = new Date('2026-01-02T03:04:05.678Z');

function listed(id: number, overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
    id,
    client_id: 7,
    available: true,
    kind: 'multi_family',
    name: `Property ${id}`,
    street: '',
    city: '',
    state: '',
    zip: '',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 1,
    background_config_id: 1,
    floor_plans: [],
    created_at: AT,
    updated_at: AT,
    request_key: `message:${id}`,
    deleted_at: null,
    version: 0,
    ...overrides,
  };
}

/** A service over `stored`, listed in client 7's list at positions 1..n in the order given, with its reads counted. */
async function serviceOver(stored: PropertyRecord[]) {
  const database = new MemoryDatabase();
  for (const [i, property] of stored.entries()) {
    await database.collection('properties').insertOne({ _id: String(property.id), ...property });
    await database.collection('property_list').insertOne({ _id: `7:${i + 1}`, client_id: 7, property_id: property.id });
  }
  const repository = new PropertiesRepository(new MemoryStorage(database), {} as EventOutbox);
  const reads = { positions: 0, properties: 0 };
  const listed = repository.listed.bind(repository);
  jest.spyOn(repository, 'listed').mockImplementation(async (...args) => {
    const answer = await listed(...args);
    reads.positions += answer.read;
    return answer;
  });
  const findLiveMany = repository.findLiveMany.bind(repository);
  jest.spyOn(repository, 'findLiveMany').mockImplementation(async (clientId, ids) => {
    reads.properties += ids.length;
    return findLiveMany(clientId, ids);
  });
  const env = { APPLY_BASE_URL: 'https://rentals.example.com/' } as PropertiesEnvironment;
  const service = new PropertiesService(
    repository,
    {} as Idempotency,
    new ClientDefaults({ form_preset_id: 1, background_config_id: 1 }, ''),
    {} as FormPresetsService,
    env,
  );
  return { service, reads };
}

describe('PropertiesService.listPage', () => {
  it('pages newest first, each cursor leading on from the last property shown', async () => {
    const { service } = await serviceOver([1, 2, 3, 4, 5].map((id) => listed(id)));
    const first = await service.listPage(7, { limit: 2 });
    expect(first.items.map((p) => p.id)).toEqual([5, 4]);
    const second = await service.listPage(7, parsePageQuery({ limit: '2', cursor: first.next_cursor }));
    expect(second.items.map((p) => p.id)).toEqual([3, 2]);
    const last = await service.listPage(7, parsePageQuery({ limit: '2', cursor: second.next_cursor }));
    expect(last).toEqual({ items: [expect.objectContaining({ id: 1 })], next_cursor: null });
  });

  it('gives no cursor when the page ends exactly at the oldest property', async () => {
    const { service } = await serviceOver([1, 2].map((id) => listed(id)));
    expect((await service.listPage(7, { limit: 2 })).next_cursor).toBeNull();
  });

  it('skips deleted, foreign and unstored properties, and those the filter leaves out', async () => {
    const { service } = await serviceOver([
      listed(1),
      listed(2, { available: false }),
      listed(3, { deleted_at: AT }),
      listed(4, { client_id: 8 }),
      listed(5),
    ]);
    expect((await service.listPage(7, { limit: 10 })).items.map((p) => p.id)).toEqual([5, 2, 1]);
    expect((await service.listPage(7, { limit: 10 }, true)).items.map((p) => p.id)).toEqual([5, 1]);
    expect((await service.listPage(7, { limit: 10 }, false)).items.map((p) => p.id)).toEqual([2]);
  });

  it('reads a bounded number of positions, answering a short page with a cursor to go on from', async () => {
    const stored = Array.from({ length: 1000 }, (_, i) => listed(i + 1, { available: i === 0 }));
    const { service, reads } = await serviceOver(stored);
    const page = await service.listPage(7, { limit: 25 }, true);
    expect(page.items).toEqual([]);
    expect(reads.positions).toBe(200);
    expect(reads.properties).toBe(200);
    expect(parsePageQuery({ cursor: page.next_cursor })).toEqual({ limit: 25, before: 801 });

    let cursor: string | null = page.next_cursor;
    const found: number[] = [];
    while (cursor !== null) {
      const next = await service.listPage(7, parsePageQuery({ limit: '25', cursor }), true);
      found.push(...next.items.map((p) => p.id));
      cursor = next.next_cursor;
    }
    expect(found).toEqual([1]);
  });
});
