import { Test } from '@nestjs/testing';
import { ErrorCode, PROPERTIES, PropertyRepresentation, ServiceError } from '@app/contracts';
import { InProcessMessages } from '@app/messaging/in-process-server.testing';
import { isDatabaseUnavailable } from '@app/persistence';
import { MongoServerError } from 'mongodb';
import { PropertiesMessageController } from './properties.message.controller';
import { PropertiesService } from './properties.service';

const REPRESENTATION = { id: 3, name: 'Maple Court' } as PropertyRepresentation;

const NO_CLIENT_ID = { code: ErrorCode.INTERNAL, message: 'message without a valid client_id', details: null };

describe('PropertiesMessageController', () => {
  let service: jest.Mocked<Pick<PropertiesService, 'create' | 'get' | 'delete' | 'lookup'>>;
  let messages: InProcessMessages;

  beforeEach(async () => {
    service = { create: jest.fn(), get: jest.fn(), delete: jest.fn(), lookup: jest.fn() };
    const module = await Test.createTestingModule({
      controllers: [PropertiesMessageController],
      providers: [{ provide: PropertiesService, useValue: service }],
    }).compile();
    messages = await InProcessMessages.start(module, isDatabaseUnavailable);
  });

  afterEach(() => messages.close());

  describe('create', () => {
    const request = { property: { name: '  Maple Court ', zip: '02139' } };

    it('creates the validated, normalized property for the client, scoped by key and message id', async () => {
      service.create.mockResolvedValue(REPRESENTATION);

      const delivery = await messages.send(
        PROPERTIES.CREATE,
        { client_id: 7, request, idempotency_key: 'order-1' },
        'correlation-1',
      );

      expect(delivery).toEqual({ outcome: 'ack', answer: { property: REPRESENTATION } });
      expect(service.create).toHaveBeenCalledTimes(1);
      const [clientId, input, scope] = service.create.mock.calls[0];
      expect(clientId).toBe(7);
      expect({ ...input }).toEqual({ name: 'Maple Court', zip: '02139' });
      expect(scope).toEqual({ key: 'order-1', messageId: 'correlation-1' });
    });

    it('passes no key when the message carries none', async () => {
      service.create.mockResolvedValue(REPRESENTATION);
      await messages.send(PROPERTIES.CREATE, { client_id: 7, request }, 'correlation-2');
      expect(service.create.mock.calls[0][2]).toEqual({ key: undefined, messageId: 'correlation-2' });
    });

    it.each([
      ['without client_id', { request }],
      ['with client_id 0', { client_id: 0, request }],
      ['with a client_id in text', { client_id: '7', request }],
    ])('refuses a message %s and dead-letters it', async (_label, message) => {
      const delivery = await messages.send(PROPERTIES.CREATE, message);
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NO_CLIENT_ID });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('refuses a request the contract refuses, and acknowledges it', async () => {
      const delivery = await messages.send(PROPERTIES.CREATE, { client_id: 7, request: { property: { zip: '02139' } } });
      expect(delivery.outcome).toBe('ack');
      expect(delivery.error).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        details: [{ field: 'property.name', message: 'is required' }],
      });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('refuses an idempotency key that is not printable ASCII', async () => {
      const delivery = await messages.send(PROPERTIES.CREATE, { client_id: 7, request, idempotency_key: 'caf\u00e9' });
      expect(delivery.error).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, details: [{ field: 'Idempotency-Key' }] });
      expect(service.create).not.toHaveBeenCalled();
    });

    it('answers with the refusal the service raised', async () => {
      service.create.mockRejectedValue(ServiceError.idempotencyKeyReused());
      const delivery = await messages.send(PROPERTIES.CREATE, { client_id: 7, request, idempotency_key: 'order-1' });
      expect(delivery).toEqual({ outcome: 'ack', error: ServiceError.idempotencyKeyReused().toPayload() });
    });

    it('hands the message back to the queue, unanswered, when the work fails unexpectedly', async () => {
      service.create.mockRejectedValue(new Error('connection reset'));
      const delivery = await messages.send(PROPERTIES.CREATE, { client_id: 7, request });
      expect(delivery).toEqual({ outcome: 'retry' });
    });
  });

  describe('get', () => {
    it('answers with the property the service found for the client', async () => {
      service.get.mockResolvedValue(REPRESENTATION);
      const delivery = await messages.send(PROPERTIES.GET, { client_id: 7, id: 3 });
      expect(delivery).toEqual({ outcome: 'ack', answer: { property: REPRESENTATION } });
      expect(service.get).toHaveBeenCalledWith(7, 3);
    });

    it('answers PROPERTY_NOT_FOUND when the service finds none', async () => {
      service.get.mockRejectedValue(ServiceError.propertyNotFound(3));
      const delivery = await messages.send(PROPERTIES.GET, { client_id: 7, id: 3 });
      expect(delivery).toEqual({ outcome: 'ack', error: ServiceError.propertyNotFound(3).toPayload() });
    });

    it.each([0, -1, 1.5, '3', null])('answers PROPERTY_NOT_FOUND for the id %j without asking the service', async (id) => {
      const delivery = await messages.send(PROPERTIES.GET, { client_id: 7, id });
      expect(delivery.error).toEqual(ServiceError.propertyNotFound(String(id)).toPayload());
      expect(service.get).not.toHaveBeenCalled();
    });

    it('refuses a message without client_id and dead-letters it', async () => {
      const delivery = await messages.send(PROPERTIES.GET, { id: 3 });
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NO_CLIENT_ID });
      expect(service.get).not.toHaveBeenCalled();
    });
  });

  describe('delete', () => {
    it('answers with the representation the deleted property had', async () => {
      service.delete.mockResolvedValue(REPRESENTATION);
      const delivery = await messages.send(PROPERTIES.DELETE, { client_id: 7, id: 3 }, 'm-7');
      expect(delivery).toEqual({ outcome: 'ack', answer: { property: REPRESENTATION } });
      // The message id names the request, so that a redelivery after a lost answer is known again.
      expect(service.delete).toHaveBeenCalledWith(7, 3, undefined, 'message:m-7');
    });

    it('passes an If-Match on to the service', async () => {
      service.delete.mockResolvedValue(REPRESENTATION);
      await messages.send(PROPERTIES.DELETE, { client_id: 7, id: 3, if_match: '"abc"' });
      expect(service.delete).toHaveBeenCalledWith(7, 3, '"abc"', expect.stringMatching(/^message:/));
    });

    it('answers PROPERTY_NOT_FOUND when there was nothing live to delete', async () => {
      service.delete.mockRejectedValue(ServiceError.propertyNotFound(3));
      const delivery = await messages.send(PROPERTIES.DELETE, { client_id: 7, id: 3 });
      expect(delivery.error).toEqual(ServiceError.propertyNotFound(3).toPayload());
    });

    it('answers PROPERTY_NOT_FOUND for an id that is no positive integer, without asking the service', async () => {
      const delivery = await messages.send(PROPERTIES.DELETE, { client_id: 7, id: 'all' });
      expect(delivery.error).toEqual(ServiceError.propertyNotFound('all').toPayload());
      expect(service.delete).not.toHaveBeenCalled();
    });

    it('refuses a message without client_id and dead-letters it', async () => {
      const delivery = await messages.send(PROPERTIES.DELETE, { id: 3 });
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NO_CLIENT_ID });
      expect(service.delete).not.toHaveBeenCalled();
    });
  });

  describe('lookup', () => {
    it('answers with the summary of the live property the client owns', async () => {
      service.lookup.mockResolvedValue({ id: 3, name: 'Maple Court' });
      const delivery = await messages.send(PROPERTIES.LOOKUP, { client_id: 7, id: 3 });
      expect(delivery).toEqual({ outcome: 'ack', answer: { id: 3, name: 'Maple Court' } });
      expect(service.lookup).toHaveBeenCalledWith(7, 3);
    });

    it('answers null, not an error, when the client has no such live property', async () => {
      service.lookup.mockResolvedValue(null);
      const delivery = await messages.send(PROPERTIES.LOOKUP, { client_id: 7, id: 3 });
      expect(delivery).toEqual({ outcome: 'ack', answer: null });
    });

    it('refuses a message without client_id and dead-letters it', async () => {
      const delivery = await messages.send(PROPERTIES.LOOKUP, { id: 3 });
      expect(delivery).toEqual({ outcome: 'dead-letter', error: NO_CLIENT_ID });
      expect(service.lookup).not.toHaveBeenCalled();
    });
  });

  describe('a database that does not answer in time', () => {
    it('answers 503 and acknowledges the message when FerretDB cuts a read at its time limit (code 1, interrupted)', async () => {
      service.get.mockRejectedValue(new MongoServerError({ ok: 0, code: 1, errmsg: 'interrupted' }));
      const delivery = await messages.send(PROPERTIES.GET, { client_id: 7, id: 3 });
      expect(delivery).toEqual({
        outcome: 'ack',
        error: expect.objectContaining({ code: ErrorCode.SERVICE_UNAVAILABLE }),
      });
    });

    it('hands an unexpected database error back to the queue', async () => {
      service.get.mockRejectedValue(new MongoServerError({ ok: 0, code: 1, errmsg: 'unexpected state' }));
      const delivery = await messages.send(PROPERTIES.GET, { client_id: 7, id: 3 });
      expect(delivery.outcome).toBe('retry');
    });
  });
});
