import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { NotificationsEnvironment } from '../config/notifications.environment';
import { newMessageRecord } from '../messages/message-record';
import { draftOf } from '../messages/message-record.testing';
import { Mailer } from './mailer';

describe('Mailer, a send whose signal aborts', () => {
  let server: SMTPServer;
  /** Messages the server has begun to take, each held until the server closes. */
  let taking = 0;
  let mailer: Mailer;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream) {
        taking += 1;
        stream.resume();
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    mailer = new Mailer(Object.assign(new NotificationsEnvironment(), { SMTP_URL: `smtp://127.0.0.1:${port}` }));
  });

  afterAll(async () => {
    mailer.onModuleDestroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const message = (n: number) =>
    newMessageRecord(draftOf({ source: `evt_${n}`, to: `ada-${n}@example.test` }), 'applications@mail.example.test', new Date());

  it('stops, whether it waits for one of the pool’s connections or is on one, and sends nothing after', async () => {
    const controllers = [1, 2, 3].map(() => new AbortController());
    const sends = controllers.map((controller, n) => mailer.send(message(n), controller.signal));
    const outcomes = sends.map((send) =>
      send.then(
        () => 'sent',
        (error: Error) => error.name,
      ),
    );
    // The pool's two connections hold the first two; the third waits for one.
    while (taking < 2) await new Promise((resolve) => setTimeout(resolve, 20));

    controllers[2].abort();
    await expect(outcomes[2]).resolves.toBe('AbortError');
    controllers[0].abort();
    controllers[1].abort();
    await expect(Promise.all(outcomes)).resolves.toEqual(['AbortError', 'AbortError', 'AbortError']);
    expect(taking).toBe(2);
  });
});
