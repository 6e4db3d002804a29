import { Test } from '@nestjs/testing';
import { CreatePropertyRequest, ErrorCode, PROPERTIES, PropertyResponse, ServiceError } from '@app/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { EntityTagInterceptor } from '../http/entity-tag.interceptor';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { PropertiesHttpController } from './properties.http.controller';

const CLIENT = 7;
const ANSWER = { property: { id: 3, name: 'Maple Court' } } as PropertyResponse;

describe('PropertiesHttpController', () => {
  let backends: jest.Mocked<Pick<Backends, 'properties' | 'applications'>>;
  let controller: PropertiesHttpController;

  beforeEach(async () => {
    backends = { properties: jest.fn().mockResolvedValue(ANSWER), applications: jest.fn() };
    // Authentication, rate limits and entity tags have specs of their own; here every request is let through.
    const module = await Test.createTestingModule({
      controllers: [PropertiesHttpController],
      providers: [{ provide: Backends, useValue: backends }],
    })
      .overrideGuard(ApiKeyGuard)
      .useValue({ canActivate: () => true })
      .overrideGuard(RateLimitGuard)
      .useValue({ canActivate: () => true })
      .overrideInterceptor(EntityTagInterceptor)
      .useValue({ intercept: jest.fn() })
      .compile();
    controller = module.get(PropertiesHttpController);
  });

  describe('create', () => {
    const request = Object.assign(new CreatePropertyRequest(), { property: { name: 'Maple Court' } });

    it("sends the caller's request and Idempotency-Key to the properties service and answers with its answer", async () => {
      await expect(controller.create(CLIENT, request, { idempotency_key: 'order-1', key_id: '0123456789abcdef' })).resolves.toBe(
        ANSWER,
      );
      expect(backends.properties).toHaveBeenCalledWith(PROPERTIES.CREATE, {
        client_id: CLIENT,
        request,
        idempotency_key: 'order-1',
        key_id: '0123456789abcdef',
      });
      expect(backends.applications).not.toHaveBeenCalled();
    });

    it('sends no key when the request has none', async () => {
      await controller.create(CLIENT, request, { idempotency_key: undefined, key_id: undefined });
      expect(JSON.parse(JSON.stringify(backends.properties.mock.calls[0][1]))).toEqual({ client_id: CLIENT, request });
    });

    it('lets the refusal of the service through', async () => {
      backends.properties.mockRejectedValue(ServiceError.idempotencyKeyReused());
      await expect(
        controller.create(CLIENT, request, { idempotency_key: 'order-1', key_id: '0123456789abcdef' }),
      ).rejects.toMatchObject({
        code: ErrorCode.IDEMPOTENCY_KEY_REUSED,
      });
    });
  });

  describe('get', () => {
    it("asks the properties service for the caller's property by its id", async () => {
      await expect(controller.get(CLIENT, '3')).resolves.toBe(ANSWER);
      expect(backends.properties).toHaveBeenCalledWith(PROPERTIES.GET, { client_id: CLIENT, id: 3 });
    });

    it.each(['0', '-3', '3.0', '1e3', 'abc', ' 3', '99999999999999999'])(
      'raises PROPERTY_NOT_FOUND for the id %j without asking the service',
      async (id) => {
        expect(() => controller.get(CLIENT, id)).toThrow(ServiceError.propertyNotFound(id));
        expect(() => controller.get(CLIENT, id)).toThrow(expect.objectContaining({ code: ErrorCode.PROPERTY_NOT_FOUND }));
        expect(backends.properties).not.toHaveBeenCalled();
      },
    );

    it('lets PROPERTY_NOT_FOUND from the service through', async () => {
      backends.properties.mockRejectedValue(ServiceError.propertyNotFound(3));
      await expect(controller.get(CLIENT, '3')).rejects.toMatchObject({ code: ErrorCode.PROPERTY_NOT_FOUND });
    });
  });

  describe('delete', () => {
    it("asks the properties service to delete the caller's property by its id", async () => {
      await expect(controller.delete(CLIENT, '3', undefined)).resolves.toBe(ANSWER);
      expect(backends.properties).toHaveBeenCalledWith(PROPERTIES.DELETE, { client_id: CLIENT, id: 3 });
    });

    it('passes the If-Match header on, for the service to compare', async () => {
      await controller.delete(CLIENT, '3', '"abc"');
      expect(backends.properties).toHaveBeenCalledWith(PROPERTIES.DELETE, { client_id: CLIENT, id: 3, if_match: '"abc"' });
    });

    it('raises PROPERTY_NOT_FOUND for an id that is no positive integer, without asking the service', async () => {
      await expect(controller.delete(CLIENT, 'all', undefined)).rejects.toEqual(ServiceError.propertyNotFound('all'));
      expect(backends.properties).not.toHaveBeenCalled();
    });

    it('lets PROPERTY_NOT_FOUND from the service through', async () => {
      backends.properties.mockRejectedValue(ServiceError.propertyNotFound(3));
      await expect(controller.delete(CLIENT, '3', undefined)).rejects.toMatchObject({ code: ErrorCode.PROPERTY_NOT_FOUND });
    });
  });
});
