import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import { APPLICATIONS, ApplicationRepresentation, CreateApplicationRequest, ErrorCode, ServiceError } from '@app/contracts';
import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { InProcessMessages } from '@app/messaging/in-process-server.testing';
import { ApplicationsMessageController } from './applications.message.controller';
import { ApplicationReadsService } from '../use-cases/application-reads.service';
import { ApplicationsService } from '../use-cases/applications.service';

const REPRESENTATION = { id: 60, property_id: 3 } as ApplicationRepresentation;

const NO_CLIENT_ID = { code: ErrorCode.INTERNAL, message: 'message without a valid client_id', details: null };
const NOT_SEALED = {
  code: ErrorCode.INTERNAL,
  message: 'message refused: applicant fields must travel sealed with a known key',
  details: null,
};

/** The client and message the gateway sealed the values for; each message is sent under this id. */
const OWNER = { clientId: 7, messageId: 'm-1' };

const newCipher = () => new FieldCipher(`k1:${randomBytes(32).toString('base64')}`);

function request(applicant: Record<string, unknown> = {}, application: Record<string, unknown> = {}) {
  return {
    application: {
      property_id: '3',
      applicant: { first_name: ' Ada ', last_name: 'Lovelace', email: 'ada@example.com', ...applicant },
      ...application,
    },
  } as unknown as CreateApplicationRequest;
}

describe('ApplicationsMessageController', () => {
  let service: jest.Mocked<Pick<ApplicationsService, 'create'>>;
  let sealer: ApplicantSealer;
  let messages: InProcessMessages;

  beforeEach(async () => {
    service = { create: jest.fn().mockResolvedValue(REPRESENTATION) };
    sealer = new ApplicantSealer(newCipher());
    const module = await Test.createTestingModule({
      controllers: [ApplicationsMessageController],
      providers: [
        { provide: ApplicationsService, useValue: service },
        { provide: ApplicationReadsService, useValue: {} },
        { provide: ApplicantSealer, useValue: sealer },
      ],
    }).compile();
    messages = await InProcessMessages.start(module);
  });

  afterEach(() => messages.close());

  describe('create', () => {
    it('creates the validated, normalized application with the sealed fields opened, scoped by key and message id', async () => {
      const sealed = sealer.seal(request({ id_number: '078-05-1120', dob: '12/10/1985' }), {
        clientId: 7,
        messageId: 'correlation-1',
      });

      const delivery = await messages.send(
        APPLICATIONS.CREATE,
        { client_id: 7, ...sealed, idempotency_key: 'order-1' },
        'correlation-1',
      );

      expect(delivery).toEqual({ outcome: 'ack', answer: { application: REPRESENTATION } });
      expect(service.create).toHaveBeenCalledTimes(1);
      const [clientId, input, scope] = service.create.mock.calls[0];
      expect(clientId).toBe(7);
      expect(input.property_id).toBe(3);
      expect({ ...input.applicant }).toEqual({
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        id_number: '078051120',
        dob: '1985-12-10',
      });
      expect(scope).toEqual({ key: 'order-1', messageId: 'correlation-1' });
    });

    it('creates an application whose applicant left the sealed fields out', async () => {
      const delivery = await messages.send(
        APPLICATIONS.CREATE,
        { client_id: 7, ...sealer.seal(request(), OWNER) },
        OWNER.messageId,
      );
      expect(delivery.outcome).toBe('ack');
      const { applicant } = service.create.mock.calls[0][1];
      expect([applicant.id_number, applicant.dob]).toEqual([undefined, undefined]);
    });

    it.each([
      ['without client_id', undefined],
      ['with client_id 0', 0],
      ['with a negative client_id', -7],
    ])('refuses a message %s and dead-letters it', async (_label, clientId) => {
      const owner = { ...OWNER, clientId: clientId as number };
      const delivery = await messages.send(
        APPLICATIONS.CREATE,
        { client_id: clientId, ...sealer.seal(request(), owner) },
        OWNER.messageId,
      );
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NO_CLIENT_ID });
      expect(service.create).not.toHaveBeenCalled();
    });

    it.each(['id_number', 'dob'])('refuses a message carrying %s in clear and dead-letters it', async (field) => {
      const clear = { id_number: '078051120', dob: '1985-12-10' }[field];
      const message = { client_id: 7, request: request({ [field]: clear }), sealed_applicant: {} };
      const delivery = await messages.send(APPLICATIONS.CREATE, message, OWNER.messageId);
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NOT_SEALED });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('refuses fields sealed under a key it does not hold', async () => {
      const foreign = new ApplicantSealer(newCipher()).seal(request({ id_number: '078051120' }), OWNER);
      const delivery = await messages.send(APPLICATIONS.CREATE, { client_id: 7, ...foreign }, OWNER.messageId);
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NOT_SEALED });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('refuses values sealed for another message or another client, as copied from one message into another', async () => {
      const sealed = sealer.seal(request({ id_number: '078051120' }), OWNER);
      for (const [message, messageId] of [
        [{ client_id: 7, ...sealed }, 'm-2'],
        [{ client_id: 8, ...sealed }, OWNER.messageId],
      ] as const) {
        expect(await messages.send(APPLICATIONS.CREATE, message, messageId)).toEqual({
          outcome: 'dead-letter',
          error: NOT_SEALED,
        });
      }
      expect(service.create).not.toHaveBeenCalled();
    });

    it('refuses a sealed date of birth passed off as the id number', async () => {
      const { request: body, sealed_applicant } = sealer.seal(request({ dob: '1985-12-10' }), OWNER);
      const message = { client_id: 7, request: body, sealed_applicant: { id_number: sealed_applicant.dob } };
      const delivery = await messages.send(APPLICATIONS.CREATE, message, OWNER.messageId);
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NOT_SEALED });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('answers PROPERTY_ID_INVALID for a property_id the contract refuses, and acknowledges it', async () => {
      const message = { client_id: 7, ...sealer.seal(request({}, { property_id: 'three' }), OWNER) };
      const delivery = await messages.send(APPLICATIONS.CREATE, message, OWNER.messageId);
      expect(delivery).toEqual({ outcome: 'ack', error: ServiceError.propertyIdInvalid().toPayload() });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('answers VALIDATION_FAILED for an opened field the contract refuses', async () => {
      const delivery = await messages.send(
        APPLICATIONS.CREATE,
        { client_id: 7, ...sealer.seal(request({ id_number: '12345' }), OWNER) },
        OWNER.messageId,
      );
      expect(delivery.outcome).toBe('ack');
      expect(delivery.error).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        details: [{ field: 'application.applicant.id_number' }],
      });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('answers with the refusal the service raised', async () => {
      service.create.mockRejectedValue(ServiceError.propertyIdInvalid());
      const delivery = await messages.send(
        APPLICATIONS.CREATE,
        { client_id: 7, ...sealer.seal(request(), OWNER) },
        OWNER.messageId,
      );
      expect(delivery).toEqual({ outcome: 'ack', error: ServiceError.propertyIdInvalid().toPayload() });
    });
  });
});
