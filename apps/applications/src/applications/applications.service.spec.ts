import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { ApplicantInput, ApplicationInput, ErrorCode, ServiceError } from '@app/contracts';
import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { EventOutbox } from '@app/events';
import { CreateScope, IdAllocator, Idempotency } from '@app/persistence';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicationIndex } from './application-index';
import { ApplicationVersions } from './application-versions';
import { ApplicationRecord } from './application.schema';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationsService } from './applications.service';
import { MemoryDatabase } from '@app/persistence/memory-storage.testing';
import { ApplicantForms } from './applicant-forms';
import { FormTokens } from './form-tokens';
import { PropertiesClient } from './properties.client';

const CLIENT = 7;
const SSN = '078051120';
const DOB = '1985-12-10';

function applicationInput(
  application: Partial<ApplicationInput> = {},
  applicant: Partial<ApplicantInput> = {},
): ApplicationInput {
  return Object.assign(new ApplicationInput(), {
    property_id: 3,
    applicant: Object.assign(new ApplicantInput(), {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      ...applicant,
    }),
    ...application,
  });
}

describe('ApplicationsService', () => {
  let repository: jest.Mocked<Pick<ApplicationsRepository, 'insertOnce' | 'createdWitness' | 'confirmCreated'>>;
  let properties: jest.Mocked<Pick<PropertiesClient, 'lookup'>>;
  let ids: jest.Mocked<Pick<IdAllocator, 'allocate'>>;
  let idempotency: jest.Mocked<Pick<Idempotency, 'run'>>;
  let index: jest.Mocked<Pick<ApplicationIndex, 'add'>>;
  let cipher: FieldCipher;
  let service: ApplicationsService;
  let outbox: jest.Mocked<Pick<EventOutbox, 'record' | 'written' | 'discard'>>;

  beforeEach(async () => {
    repository = {
      insertOnce: jest.fn(async (record: ApplicationRecord) => record),
      createdWitness: jest.fn((id: number) => ({ collection: 'applications_created', key: String(id) })),
      confirmCreated: jest.fn(async (_id: number, _eventIds: string[]) => true),
    };
    properties = { lookup: jest.fn().mockResolvedValue({ id: 3, name: 'Maple Court' }) };
    const next: Record<string, number> = { applications: 60, applicants: 80 };
    ids = { allocate: jest.fn(async (kind: string) => next[kind]++) };
    idempotency = { run: jest.fn() };
    idempotency.run.mockImplementation((_scope, work) => work('message:m-1', false));
    index = { add: jest.fn().mockResolvedValue(undefined) };
    outbox = { record: jest.fn().mockResolvedValue(['evt_1', 'evt_2']), written: jest.fn(), discard: jest.fn() };
    const keys = `k1:${randomBytes(32).toString('base64')}`;
    cipher = new FieldCipher(keys);
    const env = Object.assign(new ApplicationsEnvironment(), {
      PUBLIC_BASE_URL: 'https://rentals.example.com',
      FIELD_ENCRYPTION_KEYS: keys,
      FORM_LINK_KEYS: `l1:${randomBytes(32).toString('base64')}`,
    });

    const module = await Test.createTestingModule({
      providers: [
        ApplicationsService,
        { provide: ApplicationsRepository, useValue: repository },
        { provide: PropertiesClient, useValue: properties },
        { provide: IdAllocator, useValue: ids },
        { provide: Idempotency, useValue: idempotency },
        { provide: ApplicantSealer, useValue: new ApplicantSealer(cipher) },
        { provide: ApplicationIndex, useValue: index },
        { provide: ApplicationVersions, useValue: {} },
        { provide: FormTokens, useValue: new FormTokens(cipher, env) },
        {
          provide: ApplicantForms,
          // No applicant has opened the form: its records are in memory, and there are none.
          useValue: new ApplicantForms(new MemoryDatabase().connection()),
        },
        { provide: ApplicationsEnvironment, useValue: env },
        { provide: EventOutbox, useValue: outbox },
      ],
    }).compile();
    service = module.get(ApplicationsService);
  });

  describe('create', () => {
    it('does the work once per request: under the idempotency scope of the client, key and body', async () => {
      const body = applicationInput();
      await service.create(CLIENT, body, { key: 'order-1', messageId: 'm-1' });

      expect(idempotency.run).toHaveBeenCalledTimes(1);
      const scope: CreateScope = idempotency.run.mock.calls[0][0];
      expect(scope).toEqual({ key: 'order-1', messageId: 'm-1', clientId: CLIENT, body });
    });

    it('asks the properties service whether the client owns the live property', async () => {
      await service.create(CLIENT, applicationInput(), { messageId: 'm-1' });
      expect(properties.lookup).toHaveBeenCalledWith(CLIENT, 3);
    });

    it('stores the application with its primary applicant, the property name and the request key', async () => {
      const before = Date.now();
      await service.create(CLIENT, applicationInput(), { messageId: 'm-1' });

      expect(ids.allocate.mock.calls.map(([kind]) => kind).sort()).toEqual(['applicants', 'applications']);
      expect(repository.insertOnce).toHaveBeenCalledTimes(1);
      const record = repository.insertOnce.mock.calls[0][0];
      expect(record).toEqual({
        id: 60,
        client_id: CLIENT,
        property_id: 3,
        property_name: 'Maple Court',
        assigned_user_id: null,
        user_specified_rent: null,
        desired_move_in: null,
        applicants: [
          {
            id: 80,
            type: 'primary',
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            dob: null,
            id_number: null,
            phone: null,
            custom_data: null,
            reference_id: null,
            redirect_url: null,
            form_token: expect.objectContaining({ key_id: 'k1' }),
            form_token_digest: expect.stringMatching(/^[\w-]{43}$/),
            form_status: 'not_started',
            form_started_at: null,
            form_completed_at: null,
            created_at: record.created_at,
            updated_at: record.created_at,
          },
        ],
        version: 0,
        event_ids: ['evt_1', 'evt_2'],
        created_at: expect.any(Date),
        updated_at: record.created_at,
        request_key: 'message:m-1',
      });
      expect(record.created_at.getTime()).toBeGreaterThanOrEqual(before);
      expect(outbox.record).toHaveBeenCalledWith(CLIENT, { collection: 'applications_created', key: '60' }, [
        { event: 'application.created', data: { application_id: 60, property_id: 3 } },
        { event: 'applicant.created', data: { applicant_id: 80, application_id: 60, property_id: 3, reference_id: null } },
      ]);
      expect(outbox.record.mock.invocationCallOrder[0]).toBeLessThan(repository.insertOnce.mock.invocationCallOrder[0]);
      // Said written once stored and its property seen live after: the relay publishes them at once.
      expect(outbox.written).toHaveBeenCalledWith(['evt_1', 'evt_2']);
      expect(outbox.written.mock.invocationCallOrder[0]).toBeGreaterThan(properties.lookup.mock.invocationCallOrder[1]);
    });

    it('puts the application in its client’s and its property’s lists before storing it', async () => {
      const order: string[] = [];
      index.add.mockImplementation(async () => void order.push('listed'));
      repository.insertOnce.mockImplementation(async (record) => (order.push('stored'), record));
      await service.create(CLIENT, applicationInput(), { messageId: 'm-1' });

      expect(index.add).toHaveBeenCalledWith(CLIENT, 3, 60);
      expect(order).toEqual(['listed', 'stored']);
    });

    it('stores the id number and date of birth sealed, each bound to its field, the client and the applicant', async () => {
      await service.create(CLIENT, applicationInput({}, { id_number: SSN, dob: DOB }), { messageId: 'm-1' });

      const [applicant] = repository.insertOnce.mock.calls[0][0].applicants;
      expect(JSON.stringify(applicant)).not.toContain(SSN);
      expect(JSON.stringify(applicant)).not.toContain(DOB);
      const sealer = new ApplicantSealer(cipher);
      const owner = { clientId: CLIENT, applicantId: applicant.id };
      expect(sealer.openField('id_number', applicant.id_number, owner)).toBe(SSN);
      expect(sealer.openField('dob', applicant.dob, owner)).toBe(DOB);
      expect(() => sealer.openField('dob', applicant.dob, { ...owner, applicantId: applicant.id + 1 })).toThrow(
        'failed authentication',
      );
      expect(() => sealer.openField('dob', applicant.dob, { ...owner, clientId: CLIENT + 1 })).toThrow('failed authentication');
    });

    it('keeps the other values given, custom_data as its JSON text', async () => {
      const input = applicationInput(
        { assigned_user_id: 42, user_specified_rent: 1850, desired_move_in: '2026-12-01' },
        {
          phone: '5550101234',
          custom_data: { source: 'web' },
          reference_id: 'crm-77',
          redirect_url: 'https://landlord.example/thanks',
        },
      );
      await service.create(CLIENT, input, { messageId: 'm-1' });

      const record = repository.insertOnce.mock.calls[0][0];
      expect(record).toMatchObject({ assigned_user_id: 42, user_specified_rent: 1850, desired_move_in: '2026-12-01' });
      expect(record.applicants[0]).toMatchObject({
        phone: '5550101234',
        custom_data: '{"source":"web"}',
        reference_id: 'crm-77',
        redirect_url: 'https://landlord.example/thanks',
      });
    });

    it('answers with the representation of what is stored, the one an earlier try stored included', async () => {
      repository.insertOnce.mockImplementation(async (record) => ({ ...record, id: 12 }));
      const created = await service.create(CLIENT, applicationInput(), { messageId: 'm-1' });
      expect(created).toMatchObject({
        id: 12,
        client_id: CLIENT,
        property: { id: 3, name: 'Maple Court' },
        applicants: [
          {
            id: 80,
            type: 'primary',
            name: 'Ada Lovelace',
            api_url: 'https://rentals.example.com/api/v2/applications/12/applicants/80',
          },
        ],
      });
      // The earlier try's record carries that try's events: this try's are never said written.
      expect(outbox.written).not.toHaveBeenCalled();
      expect(outbox.discard).toHaveBeenCalledWith(['evt_1', 'evt_2']);
    });

    it('claims the ids while the property is being looked up, not after', async () => {
      let answer: (property: { id: number; name: string }) => void = () => undefined;
      properties.lookup.mockReturnValue(new Promise((resolve) => (answer = resolve)));
      const created = service.create(CLIENT, applicationInput(), { messageId: 'm-1' });
      await new Promise(setImmediate);

      expect(ids.allocate.mock.calls.map(([kind]) => kind).sort()).toEqual(['applicants', 'applications']);
      expect(repository.insertOnce).not.toHaveBeenCalled();
      answer({ id: 3, name: 'Maple Court' });
      await created;
      expect(repository.insertOnce).toHaveBeenCalledTimes(1);
    });

    it('raises PROPERTY_ID_INVALID when the property lookup answers null, recording and storing nothing', async () => {
      properties.lookup.mockResolvedValue(null);
      const failure = service.create(CLIENT, applicationInput(), { messageId: 'm-1' });

      await expect(failure).rejects.toEqual(ServiceError.propertyIdInvalid());
      await expect(failure).rejects.toMatchObject({ code: ErrorCode.PROPERTY_ID_INVALID });
      expect(outbox.record).not.toHaveBeenCalled();
      expect(index.add).not.toHaveBeenCalled();
      expect(repository.insertOnce).not.toHaveBeenCalled();
    });

    it('lets the failure of the lookup through, storing nothing', async () => {
      properties.lookup.mockRejectedValue(ServiceError.unavailable('the service is temporarily unavailable, retry later'));
      const failure = service.create(CLIENT, applicationInput(), { messageId: 'm-1' });

      await expect(failure).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE });
      expect(repository.insertOnce).not.toHaveBeenCalled();
    });

    it('looks up, allocates and stores nothing when the idempotency check refuses', async () => {
      idempotency.run.mockRejectedValue(ServiceError.idempotencyInProgress());
      const failure = service.create(CLIENT, applicationInput(), { key: 'order-1', messageId: 'm-1' });

      await expect(failure).rejects.toMatchObject({ code: ErrorCode.IDEMPOTENCY_IN_PROGRESS });
      expect(properties.lookup).not.toHaveBeenCalled();
      expect(ids.allocate).not.toHaveBeenCalled();
      expect(repository.insertOnce).not.toHaveBeenCalled();
    });
  });
});
