import { Logger } from '@nestjs/common';
import { AddressBook } from '../addresses/address-book.repository';
import { NotificationsEnvironment } from '../config/notifications.environment';
import { Mailer } from '../mail/mailer';
import { MessageRecord, newMessageRecord } from '../messages/message-record';
import { draftOf } from '../messages/message-record.testing';
import { MessageStore } from '../messages/message-store';
import { MessageSender, SendTask } from './message-sender';
import { NotificationQueues } from './notification-queues';

const SMTP_TIMEOUT_MS = 15000;

/** A store of one message, leased as MessageStore leases it. */
function storeOf(record: MessageRecord): MessageStore {
  return {
    find: async () => ({ ...record }),
    lease: async (_key: string, now: Date, until: Date) => {
      const free = record.lease_until === null || record.lease_until < now;
      if (!['pending', 'retrying'].includes(record.status) || !free) return false;
      record.lease_until = until;
      return true;
    },
    update: async (_key: string, changes: Partial<MessageRecord>) => void Object.assign(record, changes),
  } as unknown as MessageStore;
}

/**
 * A mail server whose pool has no connection free: a send waits until its signal aborts, as a
 * send queued behind slower ones in nodemailer's pool does. It counts the sends under way.
 */
function stalledMailer() {
  const sends = { underWay: 0, mostAtOnce: 0, started: 0 };
  const mailer = {
    send: (_message: MessageRecord, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        sends.started += 1;
        sends.underWay += 1;
        sends.mostAtOnce = Math.max(sends.mostAtOnce, sends.underWay);
        signal?.addEventListener('abort', () => {
          sends.underWay -= 1;
          reject(new Error('aborted'));
        });
      }),
  } as unknown as Mailer;
  return { mailer, sends };
}

describe('MessageSender, an attempt', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-25T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('has its send stopped before its lease runs out: a redelivered task taking the lease then sends no second copy alongside', async () => {
    const record = newMessageRecord(draftOf(), 'applications@mail.example.test', new Date());
    const { mailer, sends } = stalledMailer();
    const env = Object.assign(new NotificationsEnvironment(), { SMTP_TIMEOUT_MS, MAIL_RETRY_SCHEDULE: '10,60' });
    // The address is neither suppressed nor over its day's limit.
    const addresses = { isSuppressed: async () => false, takePlace: async () => true } as unknown as AddressBook;
    const queues = Object.assign(new NotificationQueues(env), { publish: async () => undefined });
    const sender = new MessageSender(storeOf(record), addresses, mailer, queues, env);
    const attempt = (task: SendTask) => void sender.attempt(task);

    attempt({ key: record._id, retry: 0 });
    await jest.advanceTimersByTimeAsync(0);
    expect(sends.underWay).toBe(1);
    const leaseEnd = record.lease_until!.getTime();

    await jest.advanceTimersByTimeAsync(leaseEnd - Date.now() + 1);
    attempt({ key: record._id, retry: 0 });
    await jest.advanceTimersByTimeAsync(0);

    expect(sends.started).toBe(2);
    expect(sends.mostAtOnce).toBe(1);
    expect(record.attempts).toBe(1);
  });
});

describe('MessageSender, a failed attempt', () => {
  it('stores and logs why without the address the mail server quoted', async () => {
    const record = newMessageRecord(draftOf(), 'applications@mail.example.test', new Date());
    const rejected = `550 5.1.1 <${record.to}>: Recipient address rejected`;
    const mailer = { send: async () => Promise.reject(new Error(rejected)) } as unknown as Mailer;
    const env = Object.assign(new NotificationsEnvironment(), { SMTP_TIMEOUT_MS, MAIL_RETRY_SCHEDULE: '10' });
    const addresses = { isSuppressed: async () => false, takePlace: async () => true } as unknown as AddressBook;
    const queues = Object.assign(new NotificationQueues(env), { publish: async () => undefined });
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);

    await new MessageSender(storeOf(record), addresses, mailer, queues, env).attempt({ key: record._id, retry: 1 });

    expect(record.status).toBe('failed');
    expect(record.last_error).toContain('Recipient address rejected');
    const written = JSON.stringify([record.last_error, warn.mock.calls]);
    expect(written.toLowerCase()).not.toContain(record.to!.toLowerCase());
    warn.mockRestore();
  });
});
