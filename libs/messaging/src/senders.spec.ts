import { Logger } from '@nestjs/common';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { metricsRegistry } from '@app/observability';
import { ackWhenDone } from './broker-channel';
import { brokerUserOf, SenderCheck, UntrustedSender } from './senders';

const from = (userId?: string) => ({ properties: { userId } }) as unknown as ConsumeMessage;

async function refusedCount(queue: string): Promise<number> {
  const { values } = await metricsRegistry.getSingleMetric('messages_dead_lettered_total')!.get();
  return values.find((v) => v.labels.queue === queue && v.labels.reason === 'untrusted_sender')?.value ?? 0;
}

describe('brokerUserOf', () => {
  it('is the URL’s user, or guest when it names none', () => {
    expect(brokerUserOf('amqp://webhooks:secret@rabbitmq:5672')).toBe('webhooks');
    expect(brokerUserOf('amqp://localhost:5672')).toBe('guest');
  });
});

describe('SenderCheck', () => {
  const check = new SenderCheck(['properties', 'applications'], 'webhooks');

  it('accepts the publishers and the service’s own user (what it moved or backed off)', () => {
    for (const sender of ['properties', 'applications', 'webhooks']) {
      expect(() => check.assertAccepted('webhooks.events', from(sender))).not.toThrow();
    }
  });

  it('refuses, and counts, a message from any other user or from none', async () => {
    const before = await refusedCount('checked.events');
    expect(() => check.assertAccepted('checked.events', from('form'))).toThrow(new UntrustedSender('checked.events', 'form'));
    expect(() => check.assertAccepted('checked.events', from())).toThrow('from an untrusted sender (none)');
    expect(await refusedCount('checked.events')).toBe(before + 2);
  });

  it('accepts anyone when no publisher is named', () => {
    expect(() => new SenderCheck([], 'webhooks').assertAccepted('webhooks.events', from())).not.toThrow();
  });
});

describe('ackWhenDone, a message from an untrusted sender', () => {
  it('is rejected without being handed back, so its dead-letter route keeps it', async () => {
    const channel = { ack: jest.fn(), nack: jest.fn() };
    const message = from('form');
    const work = jest.fn(async () => new SenderCheck(['properties'], 'webhooks').assertAccepted('webhooks.events', message));
    await ackWhenDone(channel as unknown as ConfirmChannel, message, work, new Logger('test'));
    expect(channel.nack).toHaveBeenCalledWith(message, false, false);
    expect(channel.ack).not.toHaveBeenCalled();
  });
});
