import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import {
  APPLICATIONS,
  ApplicationResponse,
  CreateApplicationMessage,
  CreateApplicationRequest,
  ErrorCode,
  ServiceError,
} from '@app/contracts';
import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { BoundToMessage } from '@app/messaging';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApplicationsHttpController } from './applications.http.controller';

const CLIENT = 7;
const SSN = '078051120';
const DOB = '1985-12-10';
const ANSWER = { application: { id: 60 } } as ApplicationResponse;

function request(applicant: Record<string, unknown> = {}): CreateApplicationRequest {
  return {
    application: {
      property_id: 3,
      applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', ...applicant },
    },
  } as CreateApplicationRequest;
}

describe('ApplicationsHttpController', () => {
  let backends: jest.Mocked<Pick<Backends, 'properties' | 'applications'>>;
  let cipher: FieldCipher;
  let controller: ApplicationsHttpController;

  beforeEach(async () => {
    backends = { properties: jest.fn(), applications: jest.fn().mockResolvedValue(ANSWER) };
    cipher = new FieldCipher(`k1:${randomBytes(32).toString('base64')}`);
    // Authentication and rate limits have specs of their own; here every request is let through.
    const module = await Test.createTestingModule({
      controllers: [ApplicationsHttpController],
      providers: [
        { provide: Backends, useValue: backends },
        { provide: ApplicantSealer, useValue: new ApplicantSealer(cipher) },
      ],
    })
      .overrideGuard(ApiKeyGuard)
      .useValue({ canActivate: () => true })
      .overrideGuard(RateLimitGuard)
      .useValue({ canActivate: () => true })
      .compile();
    controller = module.get(ApplicationsHttpController);
  });

  describe('create', () => {
    const KEY_ID = '0123456789abcdef';
    const NO_KEY = { idempotency_key: undefined, key_id: undefined };
    /** The message as sent under the id `messageId`, which the broker client draws as it sends. */
    const sent = (messageId = 'm-1') =>
      (backends.applications.mock.calls[0][1] as BoundToMessage).build(messageId) as CreateApplicationMessage;

    it('sends the request to the applications service and answers with its answer', async () => {
      await expect(controller.create(CLIENT, request(), { idempotency_key: 'order-1', key_id: KEY_ID })).resolves.toBe(ANSWER);
      expect(backends.applications).toHaveBeenCalledWith(APPLICATIONS.CREATE, expect.any(BoundToMessage));
      expect(sent()).toEqual({
        client_id: CLIENT,
        request: request(),
        sealed_applicant: {},
        idempotency_key: 'order-1',
        key_id: KEY_ID,
      });
      expect(backends.properties).not.toHaveBeenCalled();
    });

    it('sends the id number and date of birth only sealed, each bound to its field, the client and the message', async () => {
      await controller.create(CLIENT, request({ id_number: SSN, dob: DOB }), NO_KEY);

      const message = JSON.parse(JSON.stringify(sent('m-1')));
      expect(JSON.stringify(message)).not.toContain(SSN);
      expect(JSON.stringify(message)).not.toContain(DOB);
      expect(message.request).toEqual(request());
      const service = new ApplicantSealer(cipher);
      expect((service.open(message, 'm-1') as CreateApplicationRequest).application.applicant).toMatchObject({
        id_number: SSN,
        dob: DOB,
      });
      expect(() => service.open(message, 'm-2')).toThrow(ServiceError);
      expect(() => service.open({ ...message, client_id: CLIENT + 1 }, 'm-1')).toThrow(ServiceError);
      expect(message.idempotency_key).toBeUndefined();
    });

    it("leaves the caller's request as it was", async () => {
      const original = request({ id_number: SSN });
      await controller.create(CLIENT, original, NO_KEY);
      expect(original.application.applicant.id_number).toBe(SSN);
    });

    it('lets the refusal of the service through', async () => {
      backends.applications.mockRejectedValue(ServiceError.propertyIdInvalid());
      await expect(controller.create(CLIENT, request(), NO_KEY)).rejects.toMatchObject({
        code: ErrorCode.PROPERTY_ID_INVALID,
      });
    });
  });
});
