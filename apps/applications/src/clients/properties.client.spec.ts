import { Test } from '@nestjs/testing';
import { ClientProxy, RmqRecord } from '@nestjs/microservices';
import { of, throwError } from 'rxjs';
import { ErrorCode, PROPERTIES, QUEUES } from '@app/contracts';
import { queueClientToken } from '@app/messaging';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { PropertiesClient } from '../clients/properties.client';

describe('PropertiesClient', () => {
  let send: jest.Mock<ReturnType<ClientProxy['send']>, Parameters<ClientProxy['send']>>;
  let client: PropertiesClient;

  beforeEach(async () => {
    send = jest.fn();
    const env = Object.assign(new ApplicationsEnvironment(), { PROPERTY_LOOKUP_TIMEOUT_MS: 1500 });
    const module = await Test.createTestingModule({
      providers: [
        PropertiesClient,
        { provide: queueClientToken(QUEUES.PROPERTIES), useValue: { send } },
        { provide: ApplicationsEnvironment, useValue: env },
      ],
    }).compile();
    client = module.get(PropertiesClient);
  });

  describe('lookup', () => {
    it('asks the properties queue about the client and property, with the lookup deadline', async () => {
      send.mockReturnValue(of({ id: 3, name: 'Maple Court' }));

      await expect(client.lookup(7, 3)).resolves.toEqual({ id: 3, name: 'Maple Court' });
      expect(send).toHaveBeenCalledTimes(1);
      const [pattern, record] = send.mock.calls[0] as [string, RmqRecord];
      expect(pattern).toBe(PROPERTIES.LOOKUP);
      expect(record.data).toEqual({ client_id: 7, id: 3 });
      expect(record.options?.expiration).toBe('1500');
    });

    it('answers null when the client has no such live property', async () => {
      send.mockReturnValue(of(null));
      await expect(client.lookup(7, 3)).resolves.toBeNull();
    });

    it.each([[{ id: 3 }], [{ id: 0, name: 'x' }], [{ id: '3', name: 'x' }], ['Maple Court'], [[]]])(
      'fails, refusing nothing, when the answer is %j: a peer out of step',
      async (answer) => {
        send.mockReturnValue(of(answer));
        const failure = await client.lookup(7, 3).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(Error);
        expect(failure).not.toHaveProperty('code');
      },
    );

    it('lets the refusal of the properties service through', async () => {
      send.mockReturnValue(throwError(() => ({ code: ErrorCode.INTERNAL, message: 'message without a valid client_id' })));
      await expect(client.lookup(7, 3)).rejects.toMatchObject({ code: ErrorCode.INTERNAL });
    });
  });
});
