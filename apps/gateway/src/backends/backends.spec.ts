import { Test } from '@nestjs/testing';
import { ClientProxy, RmqRecord } from '@nestjs/microservices';
import { BehaviorSubject, NEVER, of, throwError } from 'rxjs';
import { APPLICATIONS, ErrorCode, PROPERTIES, QUEUES } from '@app/contracts';
import { queueClientToken } from '@app/messaging';
import { READINESS_TIMEOUT_MS } from '@app/observability';
import { GatewayEnvironment } from '../config/gateway.environment';
import { Backends } from './backends';

const RPC_TIMEOUT_MS = 80;

/** The parts of a queue's ClientProxy that Backends uses. */
function queueClient() {
  return {
    send: jest.fn<ReturnType<ClientProxy['send']>, Parameters<ClientProxy['send']>>(),
    connect: jest.fn<Promise<unknown>, []>().mockResolvedValue(undefined),
    status: new BehaviorSubject<string>('disconnected'),
  };
}

/** The pattern and record of the one message `client` sent. */
function sentBy(client: ReturnType<typeof queueClient>): { pattern: unknown; record: RmqRecord } {
  expect(client.send).toHaveBeenCalledTimes(1);
  const [pattern, record] = client.send.mock.calls[0];
  return { pattern, record: record as RmqRecord };
}

describe('Backends', () => {
  let propertiesQueue: ReturnType<typeof queueClient>;
  let applicationsQueue: ReturnType<typeof queueClient>;
  let webhooksQueue: ReturnType<typeof queueClient>;
  let notificationsQueue: ReturnType<typeof queueClient>;
  let backends: Backends;

  beforeEach(async () => {
    propertiesQueue = queueClient();
    applicationsQueue = queueClient();
    webhooksQueue = queueClient();
    notificationsQueue = queueClient();
    const env = Object.assign(new GatewayEnvironment(), { RPC_TIMEOUT_MS });
    const module = await Test.createTestingModule({
      providers: [
        Backends,
        { provide: queueClientToken(QUEUES.PROPERTIES), useValue: propertiesQueue },
        { provide: queueClientToken(QUEUES.APPLICATIONS), useValue: applicationsQueue },
        { provide: queueClientToken(QUEUES.WEBHOOKS), useValue: webhooksQueue },
        { provide: queueClientToken(QUEUES.NOTIFICATIONS), useValue: notificationsQueue },
        { provide: GatewayEnvironment, useValue: env },
      ],
    }).compile();
    module.useLogger(false);
    backends = module.get(Backends);
  });

  describe('onApplicationBootstrap', () => {
    it('connects to both queues', async () => {
      await backends.onApplicationBootstrap();
      expect(propertiesQueue.connect).toHaveBeenCalledTimes(1);
      expect(applicationsQueue.connect).toHaveBeenCalledTimes(1);
      expect(webhooksQueue.connect).toHaveBeenCalledTimes(1);
      expect(notificationsQueue.connect).toHaveBeenCalledTimes(1);
    });

    it('starts anyway when the broker cannot be reached, trying every queue', async () => {
      propertiesQueue.connect.mockRejectedValue(new Error('connect ECONNREFUSED 127.0.0.1:5672'));
      await expect(backends.onApplicationBootstrap()).resolves.toBeUndefined();
      expect(applicationsQueue.connect).toHaveBeenCalledTimes(1);
    });
  });

  describe('brokerConnections', () => {
    it("follows each queue client's connection status", () => {
      const [properties, applications] = backends.brokerConnections();
      expect([properties.connected, applications.connected]).toEqual([false, false]);
      propertiesQueue.status.next('connected');
      expect([properties.connected, applications.connected]).toEqual([true, false]);
      applicationsQueue.status.next('connected');
      propertiesQueue.status.next('disconnected');
      expect([properties.connected, applications.connected]).toEqual([false, true]);
    });
  });

  describe('ping', () => {
    it.each([
      ['properties', PROPERTIES.PING],
      ['applications', APPLICATIONS.PING],
    ] as const)('asks the %s queue with the readiness deadline, in a transient message', async (service, pattern) => {
      const [asked, other] =
        service === 'properties' ? [propertiesQueue, applicationsQueue] : [applicationsQueue, propertiesQueue];
      asked.send.mockReturnValue(of('pong'));

      await expect(backends.ping(service)).resolves.toBe('pong');
      const { pattern: sent, record } = sentBy(asked);
      expect(sent).toBe(pattern);
      expect(record.data).toEqual({});
      expect(record.options?.expiration).toBe(String(READINESS_TIMEOUT_MS));
      expect(record.options?.persistent).toBe(false);
      expect(other.send).not.toHaveBeenCalled();
    });
  });

  describe('properties', () => {
    it("sends the message to the properties queue with the gateway's deadline and answers with the answer", async () => {
      propertiesQueue.send.mockReturnValue(of({ property: { id: 3 } }));

      await expect(backends.properties(PROPERTIES.GET, { client_id: 7, id: 3 })).resolves.toEqual({ property: { id: 3 } });
      const { pattern, record } = sentBy(propertiesQueue);
      expect(pattern).toBe(PROPERTIES.GET);
      expect(record.data).toEqual({ client_id: 7, id: 3 });
      expect(record.options?.expiration).toBe(String(RPC_TIMEOUT_MS));
      expect(applicationsQueue.send).not.toHaveBeenCalled();
    });

    it('rejects with the refusal the service answered', async () => {
      const refusal = { code: ErrorCode.PROPERTY_NOT_FOUND, message: 'property 3 cannot be found', details: null };
      propertiesQueue.send.mockReturnValue(throwError(() => refusal));
      await expect(backends.properties(PROPERTIES.GET, { client_id: 7, id: 3 })).rejects.toMatchObject(refusal);
    });

    it('rejects with SERVICE_UNAVAILABLE when no answer comes before the deadline', async () => {
      propertiesQueue.send.mockReturnValue(NEVER);
      await expect(backends.properties(PROPERTIES.GET, { client_id: 7, id: 3 })).rejects.toMatchObject({
        code: ErrorCode.SERVICE_UNAVAILABLE,
      });
    });
  });

  describe('applications', () => {
    it("sends the message to the applications queue with the gateway's deadline and answers with the answer", async () => {
      applicationsQueue.send.mockReturnValue(of({ application: { id: 60 } }));

      const message = { client_id: 7, request: {}, sealed_applicant: {} };
      await expect(backends.applications(APPLICATIONS.CREATE, message)).resolves.toEqual({ application: { id: 60 } });
      const { pattern, record } = sentBy(applicationsQueue);
      expect(pattern).toBe(APPLICATIONS.CREATE);
      expect(record.data).toEqual(message);
      expect(record.options?.expiration).toBe(String(RPC_TIMEOUT_MS));
      expect(propertiesQueue.send).not.toHaveBeenCalled();
    });

    it('rejects with the refusal the service answered', async () => {
      const refusal = {
        code: ErrorCode.PROPERTY_ID_INVALID,
        message: 'property_id is invalid or cannot be found',
        details: null,
      };
      applicationsQueue.send.mockReturnValue(throwError(() => refusal));
      await expect(backends.applications(APPLICATIONS.CREATE, {})).rejects.toMatchObject(refusal);
    });
  });
});
