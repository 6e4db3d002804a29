import { RmqContext } from '@nestjs/microservices';
import { DEADLINE_HEADER } from '@app/contracts';
import { deadlinePassed, deliveryAttempt, messageIdOf, Settlement } from './settlement';

/** A channel that records what was done with each message, as amqplib's would on the wire. */
class RecordingChannel {
  readonly done: string[] = [];
  ack(message: { id: string }) {
    this.done.push(`ack ${message.id}`);
  }
  nack(message: { id: string }, _all: boolean, requeue: boolean) {
    this.done.push(`${requeue ? 'requeue' : 'dead-letter'} ${message.id}`);
  }
}

function delivery(id: string, channel: RecordingChannel, headers: Record<string, unknown> = {}): RmqContext {
  return new RmqContext([{ id, properties: { headers, correlationId: `c-${id}` } }, channel, 'pattern']);
}

describe('Settlement', () => {
  it('settles each message once, whatever is asked later', () => {
    const channel = new RecordingChannel();
    const settlement = new Settlement();
    const message = delivery('m1', channel);
    settlement.take(message);
    settlement.settle(message, 'retry');
    settlement.settle(message, 'ack');
    expect(channel.done).toEqual(['requeue m1']);
  });

  it('maps outcomes to ack, requeue and dead-letter', () => {
    const channel = new RecordingChannel();
    const settlement = new Settlement();
    settlement.settle(delivery('a', channel), 'ack');
    settlement.settle(delivery('b', channel), 'retry');
    settlement.settle(delivery('c', channel), 'dead-letter');
    expect(channel.done).toEqual(['ack a', 'requeue b', 'dead-letter c']);
  });

  it('is idle once everything taken is settled, and says so when time runs out first', async () => {
    const channel = new RecordingChannel();
    const settlement = new Settlement();
    const first = delivery('1', channel);
    const second = delivery('2', channel);
    settlement.take(first);
    settlement.take(second);
    expect(settlement.inFlight).toBe(2);

    const idle = settlement.whenIdle(10000);
    settlement.settle(first, 'ack');
    settlement.settle(second, 'ack');
    await expect(idle).resolves.toBe(true);

    const third = delivery('3', channel);
    settlement.take(third);
    await expect(settlement.whenIdle(10)).resolves.toBe(false);
  });

  it('survives a channel that is already closed', () => {
    const settlement = new Settlement();
    const closed = {
      ack: () => {
        throw new Error('Channel closed');
      },
      nack: () => undefined,
    };
    const message = new RmqContext([{ properties: {} }, closed, 'pattern']);
    settlement.take(message);
    expect(() => settlement.settle(message, 'ack')).not.toThrow();
    expect(settlement.inFlight).toBe(0);
  });
});

describe('message headers', () => {
  it('counts deliveries from the broker’s x-delivery-count', () => {
    expect(deliveryAttempt({ properties: { headers: {} } })).toBe(1);
    expect(deliveryAttempt({ properties: { headers: { 'x-delivery-count': 3 } } })).toBe(4);
  });

  it('tells a passed deadline from one still ahead, and ignores a missing one', () => {
    const now = 1_000_000;
    expect(deadlinePassed({ properties: { headers: { [DEADLINE_HEADER]: String(now - 1) } } }, now)).toBe(true);
    expect(deadlinePassed({ properties: { headers: { [DEADLINE_HEADER]: String(now + 1) } } }, now)).toBe(false);
    expect(deadlinePassed({ properties: { headers: {} } }, now)).toBe(false);
  });

  it('reads the caller’s correlation id as the message id', () => {
    expect(messageIdOf({ properties: { correlationId: 'abc' } })).toBe('abc');
  });
});
