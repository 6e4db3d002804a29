import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EVENTS_EXCHANGE, queueName } from '@app/contracts';
import { BrokerChannel } from '@app/messaging';
import { EventOutbox, PendingEvent } from './event-outbox';

/** Events read from the outbox per pass; more wait for the next. */
const BATCH = 500;

export interface RelaySettings {
  amqpUrl: string;
  namespace: string;
  /** Pause between passes over the outbox. */
  intervalMs: number;
  /** An event whose write has not shown after this long never happened, and is dropped. */
  graceMs: number;
}

/**
 * Publishes what the outbox holds: each event whose write shows goes to the durable topic
 * exchange with publisher confirms, under its event name as routing key, and only then leaves
 * the outbox. Every instance of a service runs one; two of them may publish one event twice
 * (consumers drop duplicates by event id), but none drops an event it has not seen published.
 * One pass at a time, then a pause: no busy loop, and the outbox stays small, since it is
 * emptied as events go out (FerretDB scans a collection for any filter).
 */
export class EventRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventRelay');
  private readonly exchange: string;
  private broker?: BrokerChannel;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private passing?: Promise<void>;

  constructor(
    private readonly outbox: EventOutbox,
    private readonly settings: RelaySettings,
  ) {
    this.exchange = queueName(settings.namespace, EVENTS_EXCHANGE);
  }

  onApplicationBootstrap(): void {
    this.broker = new BrokerChannel(this.settings.amqpUrl, 'event-relay', (channel) =>
      channel.assertExchange(this.exchange, 'topic', { durable: true }),
    );
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.passing;
    await this.broker?.close();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.passing = this.pass()
        .catch((error: unknown) => this.logger.warn(`relaying events failed, trying again: ${String(error)}`))
        .finally(() => this.schedule(this.settings.intervalMs));
    }, delayMs);
  }

  /** Publishes or drops the events in the outbox, oldest first. */
  async pass(now = Date.now()): Promise<void> {
    const batch = await this.outbox.pending.find({}).sort({ recorded_at: 1 }).limit(BATCH).toArray();
    for (const pending of batch) {
      if (this.stopped) return;
      await this.relay(pending, now);
    }
  }

  private async relay(pending: PendingEvent, now: number): Promise<void> {
    if (await this.outbox.written(pending)) {
      await this.broker!.publish(this.exchange, pending.event.event, pending.event, { messageId: pending._id });
    } else if (now - pending.recorded_at.getTime() < this.settings.graceMs) {
      return;
    } else {
      this.logger.log(`dropping event ${pending._id} (${pending.event.event}): its change was never written`);
    }
    await this.outbox.pending.deleteOne({ _id: pending._id });
  }
}
