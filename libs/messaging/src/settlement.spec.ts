import { RmqContext } from '@nestjs/microservices';
import { SENT_AT_HEADER, TIME_REMAINING_HEADER } from '@app/contracts';
import { CLOCK_SKEW_TOLERANCE_MS, deadlineOf, deliveryAttempt, messageIdOf, Settlement } from './settlement';

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

  const sent = (remaining: number, sentAt: number) => ({
    properties: { headers: { [TIME_REMAINING_HEADER]: String(remaining), [SENT_AT_HEADER]: String(sentAt) } },
  });

  it('counts the time left from when the message arrived, less the time it waited in its queue', () => {
    const now = 1_000_000;
    expect(deadlineOf(sent(5000, now), now)).toBe(now + 5000);
    expect(deadlineOf(sent(5000, now - 1200), now)).toBe(now + 3800);
    expect(deadlineOf(sent(5000, now - 5000), now)).toBe(now);
    expect(deadlineOf({ properties: { headers: {} } }, now)).toBeNull();
  });

  it('tolerates a sender whose clock is off, granting the whole time left', () => {
    const now = 1_000_000;
    for (const skew of [10 * 60_000, -10 * 60_000, 5000 + CLOCK_SKEW_TOLERANCE_MS + 1, -(CLOCK_SKEW_TOLERANCE_MS + 1)]) {
      expect(deadlineOf(sent(5000, now - skew), now)).toBe(now + 5000);
    }
    // Within the tolerance, a clock a little ahead is read as no wait at all.
    expect(deadlineOf(sent(5000, now + CLOCK_SKEW_TOLERANCE_MS), now)).toBe(now + 5000);
  });

  it('reads the caller’s correlation id as the message id', () => {
    expect(messageIdOf({ properties: { correlationId: 'abc' } })).toBe('abc');
  });
});
