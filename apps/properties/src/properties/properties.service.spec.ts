import { Test } from '@nestjs/testing';
import { ErrorCode, PropertyInput, ServiceError } from '@app/contracts';
import { CreateScope, IdAllocator, Idempotency } from '@app/persistence';
import { PropertiesEnvironment } from '../config/properties.environment';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { PropertiesService } from './properties.service';
import { PropertyRecord } from './property.schema';

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
    ...overrides,
  };
}

function input(fields: Partial<PropertyInput>): PropertyInput {
  return Object.assign(new PropertyInput(), fields);
}

describe('PropertiesService', () => {
  let repository: jest.Mocked<Pick<PropertiesRepository, 'insertOnce' | 'findLive' | 'markDeleted'>>;
  let ids: jest.Mocked<Pick<IdAllocator, 'allocate'>>;
  let idempotency: jest.Mocked<Pick<Idempotency, 'run'>>;
  let service: PropertiesService;

  beforeEach(async () => {
    repository = { insertOnce: jest.fn(), findLive: jest.fn(), markDeleted: jest.fn() };
    const next: Record<string, number> = { properties: 41, floor_plans: 90 };
    ids = { allocate: jest.fn(async (kind: string) => next[kind]++) };
    idempotency = { run: jest.fn() };
    idempotency.run.mockImplementation((_scope, work) => work('key:token-1'));
    const env = Object.assign(new PropertiesEnvironment(), { PUBLIC_BASE_URL: 'https://rentals.example.com/' });

    const module = await Test.createTestingModule({
      providers: [
        PropertiesService,
        { provide: PropertiesRepository, useValue: repository },
        { provide: IdAllocator, useValue: ids },
        { provide: Idempotency, useValue: idempotency },
        { provide: ClientDefaults, useValue: new ClientDefaults({ form_preset_id: 1, background_config_id: 2 }, '7:11:12') },
        { provide: PropertiesEnvironment, useValue: env },
      ],
    }).compile();
    service = module.get(PropertiesService);
  });

  describe('create', () => {
    beforeEach(() => repository.insertOnce.mockImplementation(async (record) => record));

    it('does the work once per request: under the idempotency scope of the client, key and body', async () => {
      const body = input({ name: 'Maple Court' });
      await service.create(CLIENT, body, { key: 'order-1', messageId: 'm-1' });

      expect(idempotency.run).toHaveBeenCalledTimes(1);
      const scope: CreateScope = idempotency.run.mock.calls[0][0];
      expect(scope).toEqual({ key: 'order-1', messageId: 'm-1', clientId: CLIENT, body });
    });

    it('stores the property with its defaults, one floor plan named after it, and the request key', async () => {
      const before = Date.now();
      await service.create(CLIENT, input({ name: 'Maple Court' }), { key: undefined, messageId: 'm-1' });

      expect(ids.allocate.mock.calls.map(([kind]) => kind).sort()).toEqual(['floor_plans', 'properties']);
      expect(repository.insertOnce).toHaveBeenCalledTimes(1);
      const record = repository.insertOnce.mock.calls[0][0];
      expect(record).toEqual({
        id: 41,
        client_id: CLIENT,
        available: true,
        kind: 'multi_family',
        name: 'Maple Court',
        street: '',
        city: '',
        state: '',
        zip: '',
        invitation_only: false,
        invitation_only_message: '',
        form_preset_id: 11,
        background_config_id: 12,
        floor_plans: [{ id: 90, property_id: 41, name: 'Maple Court', beds: null, baths: null, deposit: null, rent: null }],
        created_at: expect.any(Date),
        updated_at: record.created_at,
        request_key: 'key:token-1',
        deleted_at: null,
      });
      expect(record.created_at.getTime()).toBeGreaterThanOrEqual(before);
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
      expect(repository.insertOnce.mock.calls[0][0]).toMatchObject(given);
    });

    it("gives another client's property the form preset and background config of the fallback", async () => {
      await service.create(8, input({ name: 'Maple Court' }), { messageId: 'm-1' });
      expect(repository.insertOnce.mock.calls[0][0]).toMatchObject({ client_id: 8, form_preset_id: 1, background_config_id: 2 });
    });

    it('answers with the representation of what is stored, the one an earlier try stored included', async () => {
      repository.insertOnce.mockResolvedValue(storedProperty({ id: 12, name: 'Stored First' }));
      const created = await service.create(CLIENT, input({ name: 'Maple Court' }), { messageId: 'm-1' });
      expect(created).toMatchObject({
        id: 12,
        name: 'Stored First',
        application_url: 'https://rentals.example.com/properties/12/apply',
      });
    });

    it('allocates and stores nothing when the idempotency check refuses', async () => {
      idempotency.run.mockRejectedValue(ServiceError.idempotencyKeyReused());
      const failure = service.create(CLIENT, input({ name: 'Maple Court' }), { key: 'order-1', messageId: 'm-1' });
      await expect(failure).rejects.toMatchObject({ code: ErrorCode.IDEMPOTENCY_KEY_REUSED });
      expect(ids.allocate).not.toHaveBeenCalled();
      expect(repository.insertOnce).not.toHaveBeenCalled();
    });
  });

  describe('get', () => {
    it("answers with the client's live property", async () => {
      repository.findLive.mockResolvedValue(storedProperty());
      const property = await service.get(CLIENT, 3);
      expect(repository.findLive).toHaveBeenCalledWith(CLIENT, 3);
      expect(property).toMatchObject({
        id: 3,
        name: 'Maple Court',
        application_url: 'https://rentals.example.com/properties/3/apply',
      });
    });

    it('raises PROPERTY_NOT_FOUND when the repository has no live property of the client', async () => {
      repository.findLive.mockResolvedValue(null);
      await expect(service.get(CLIENT, 3)).rejects.toEqual(ServiceError.propertyNotFound(3));
      await expect(service.get(CLIENT, 3)).rejects.toMatchObject({
        code: ErrorCode.PROPERTY_NOT_FOUND,
        message: 'property 3 cannot be found',
      });
    });
  });

  describe('delete', () => {
    it('marks the property deleted now and answers with the representation it had', async () => {
      repository.markDeleted.mockResolvedValue(storedProperty());
      const before = Date.now();
      const property = await service.delete(CLIENT, 3);

      expect(repository.markDeleted).toHaveBeenCalledWith(CLIENT, 3, expect.any(Date));
      expect(repository.markDeleted.mock.calls[0][2].getTime()).toBeGreaterThanOrEqual(before);
      expect(property).toMatchObject({ id: 3, name: 'Maple Court' });
    });

    it('raises PROPERTY_NOT_FOUND when there was no live property of the client to delete', async () => {
      repository.markDeleted.mockResolvedValue(null);
      await expect(service.delete(CLIENT, 3)).rejects.toMatchObject({
        code: ErrorCode.PROPERTY_NOT_FOUND,
        message: 'property 3 cannot be found',
      });
    });
  });

  describe('lookup', () => {
    it("answers with the id and name of the client's live property", async () => {
      repository.findLive.mockResolvedValue(storedProperty());
      await expect(service.lookup(CLIENT, 3)).resolves.toEqual({ id: 3, name: 'Maple Court' });
      expect(repository.findLive).toHaveBeenCalledWith(CLIENT, 3);
    });

    it('answers null, raising nothing, when the client has no such live property', async () => {
      repository.findLive.mockResolvedValue(null);
      await expect(service.lookup(CLIENT, 3)).resolves.toBeNull();
    });
  });
});
