import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { outsideRequests, withDeadline } from '@app/contracts';
import { assertEventsExchange, BrokerChannel, eventsExchange } from '@app/messaging';
import { SpanKind } from '@opentelemetry/api';
import { countEventsRelayed, inSpan, outsideTraces, withinCarriedTrace } from '@app/observability';
import { EventOutbox, PendingEvent } from './event-outbox';

/** Events read from the outbox, or taken from writers, per batch; more wait for the next. */
const BATCH = 500;
/**
 * Events said written that wait for a batch, at most; when publishing falls this far behind, the
 * oldest are left to the passes over the outbox, which still holds them, so memory stays bounded.
 */
const MAX_WAITING = 2_000;
/**
 * How long one batch may take, every database operation of it bounded by what is left: the
 * relay's own deadline, since it serves no request (a stalled database fails the batch, and the
 * next tries again).
 */
const BATCH_TIMEOUT_MS = 10_000;

export interface RelaySettings {
  amqpUrl: string;
  namespace: string;
  /** Pause between passes over the outbox. */
  intervalMs: number;
  /** An event whose write has not shown after this long never happened, and is dropped. */
  graceMs: number;
  /**
   * Publish the events this process's writers say written as soon as they say so. Off, only the
   * passes over the outbox publish: what a process killed right after its write leaves behind.
   */
  onWrite: boolean;
}

/**
 * Publishes what the outbox holds: each event whose write shows goes to the durable topic
 * exchange with publisher confirms, under its event name as routing key, and only then leaves
 * the outbox. Every instance of a service runs one; two of them may publish one event twice
 * (consumers drop duplicates by event id), but none drops an event it has not seen published.
 *
 * Events come two ways. A writer in this process says when its write is done (EventOutbox
 * `written`: only once the write that stored their ids succeeded), and its events are published
 * at once, in batches with whatever else was said meanwhile, then deleted from the outbox in one
 * command: no read of the outbox and none of their witnesses, which on FerretDB costs more the
 * more documents the collection holds (a read by `_id` reads the rows before the match). Every
 * `intervalMs` a pass over the outbox takes the events older than that, which no writer said
 * written (it died first, or lives in another process that died): the outbox is the guarantee,
 * the writers' word only saves time. One batch at a time, then a pause: no busy loop, and the
 * outbox stays small, since it is emptied as events go out (FerretDB scans a collection for any
 * filter).
 */
export class EventRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventRelay');
  private readonly exchange: string;
  /** Events whose writers said written, waiting for the next batch. */
  private readonly written: PendingEvent[] = [];
  private broker?: BrokerChannel;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private passing?: Promise<void>;
  private lastScan = 0;

  constructor(
    private readonly outbox: EventOutbox,
    private readonly settings: RelaySettings,
  ) {
    this.exchange = eventsExchange(settings.namespace);
  }

  onApplicationBootstrap(): void {
    this.broker = new BrokerChannel(this.settings.amqpUrl, 'event-relay', (channel, broker) =>
      assertEventsExchange(channel, broker, this.exchange),
    );
    if (this.settings.onWrite) this.outbox.relayTo((events) => this.take(events));
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.passing;
    await this.broker?.close();
  }

  /** Events said written: published by the next batch, which starts now unless one is under way. */
  private take(events: PendingEvent[]): void {
    this.written.push(...events);
    if (this.written.length > MAX_WAITING) this.written.splice(0, this.written.length - MAX_WAITING);
    if (this.passing === undefined) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    // Set outside the request whose writer said written (take), whose deadline a timer would
    // otherwise keep for every later pass: once it has passed, each of them would fail at once.
    // Outside its trace too: each event is published in the trace that recorded it (relay).
    this.timer = outsideRequests(() => outsideTraces(() => setTimeout(() => this.passNow(), delayMs)));
  }

  private passNow(): void {
    this.timer = undefined;
    this.passing = withDeadline(Date.now() + BATCH_TIMEOUT_MS, () => this.pass())
      .catch((error: unknown) => this.logger.warn(`relaying events failed, trying again: ${String(error)}`))
      .finally(() => {
        this.passing = undefined;
        const untilScan = this.lastScan + this.settings.intervalMs - Date.now();
        this.schedule(this.written.length > 0 ? 0 : Math.max(0, untilScan));
      });
  }

  /**
   * Publishes the events said written; then, once `intervalMs` has passed since the last, reads
   * the outbox for those older than that and publishes or drops them, oldest first.
   */
  async pass(now = Date.now()): Promise<void> {
    if (this.written.length > 0) {
      const batch = this.written.splice(0, BATCH);
      await this.relay(batch, now, new Set(batch.map(({ _id }) => _id)), 'on_write');
    }
    if (now - this.lastScan < this.settings.intervalMs) return;
    this.lastScan = now;
    // Younger events are most likely a live writer's, which says written in a moment.
    const settled = new Date(now - this.settings.intervalMs);
    const batch = await this.outbox.pending
      .find({ recorded_at: { $lte: settled } })
      .sort({ recorded_at: 1 })
      .limit(BATCH)
      .toArray();
    await this.relay(batch, now, await this.outbox.writtenAmong(batch), 'pass');
  }

  /**
   * Publishes the batch's `written` events, drops the others once past their grace, and removes
   * both from the outbox; the rest stay for a later pass. An event whose publish failed stays too.
   */
  private async relay(batch: PendingEvent[], now: number, written: Set<string>, found: 'on_write' | 'pass'): Promise<void> {
    const done: string[] = [];
    let dropped = 0;
    const publishes: Array<Promise<unknown>> = [];
    for (const pending of batch) {
      if (this.stopped) break;
      if (written.has(pending._id)) {
        publishes.push(this.publish(pending).then(() => done.push(pending._id)));
      } else if (now - pending.recorded_at.getTime() >= this.settings.graceMs) {
        this.logger.log(`dropping event ${pending._id} (${pending.event.event}): its change was never written`);
        done.push(pending._id);
        dropped++;
      }
    }
    const failed = (await Promise.allSettled(publishes)).find((result) => result.status === 'rejected');
    await this.outbox.remove(done);
    countEventsRelayed('published', found, done.length - dropped);
    countEventsRelayed('dropped', found, dropped);
    if (failed) throw failed.reason;
  }

  /** Publishes one event, in a span of the trace of the change that recorded it. */
  private publish(pending: PendingEvent): Promise<void> {
    return withinCarriedTrace(pending.trace, () =>
      inSpan(
        `relay ${pending.event.event}`,
        () => this.broker!.publish(this.exchange, pending.event.event, pending.event, { messageId: pending._id }),
        { kind: SpanKind.PRODUCER },
      ),
    );
  }
}
