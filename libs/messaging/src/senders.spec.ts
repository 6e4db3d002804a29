import { Logger } from '@nestjs/common';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { metricsRegistry } from '@app/observability';
import { ackWhenDone } from './broker-channel';
import { APPLICATION_FORMS, APPLICATIONS, PROPERTIES } from '@app/contracts';
import { brokerUserOf, PatternSenders, SenderCheck, UntrustedSender } from './senders';

const from = (userId?: string) =>
  ({ fields: { exchange: 'events', routingKey: 'property.created' }, properties: { userId } }) as unknown as ConsumeMessage;

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

describe('PatternSenders', () => {
  const senders = new PatternSenders(['gateway', 'applications', 'form:form-eu', 'notifications:mailer']);

  it('lets each user send the patterns of its role, under the role’s name or the user given', () => {
    expect(senders.allows(PROPERTIES.DELETE, 'gateway')).toBe(true);
    expect(senders.allows(PROPERTIES.LOOKUP, 'applications')).toBe(true);
    expect(senders.allows(PROPERTIES.FORM_GET, 'form-eu')).toBe(true);
    expect(senders.allows(APPLICATION_FORMS.START, 'form-eu')).toBe(true);
    expect(senders.allows(APPLICATIONS.NOTIFICATION_SUBJECT, 'mailer')).toBe(true);
  });

  it('refuses a pattern the sender’s role does not send', () => {
    expect(senders.allows(PROPERTIES.DELETE, 'form-eu')).toBe(false);
    expect(senders.allows(APPLICATIONS.READ_SENSITIVE_DATA, 'form-eu')).toBe(false);
    expect(senders.allows(APPLICATIONS.NOTIFICATION_SUBJECT, 'form-eu')).toBe(false);
    expect(senders.allows(APPLICATION_FORMS.START, 'gateway')).toBe(false);
    expect(senders.allows(PROPERTIES.DELETE, 'applications')).toBe(false);
  });

  it('refuses an unknown sender, none, a role’s name given another user, and an unknown pattern', () => {
    expect(senders.allows(PROPERTIES.GET, 'someone')).toBe(false);
    expect(senders.allows(PROPERTIES.GET, undefined)).toBe(false);
    expect(senders.allows(PROPERTIES.FORM_GET, 'form')).toBe(false);
    expect(senders.allows('properties.drop_everything', 'gateway')).toBe(false);
  });

  it('lets anyone send anything when no sender is named', () => {
    expect(new PatternSenders([]).allows(PROPERTIES.DELETE, undefined)).toBe(true);
  });
});
