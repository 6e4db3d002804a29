import { Logger, OnModuleInit } from '@nestjs/common';
import { Connection } from 'mongoose';
import { DomainEvent, DomainEventName, EventDataOf, formatTimestamp, newEventId } from '@app/contracts';
import { traceHeaders, watchOutbox } from '@app/observability';
import { EventWitness, ignoreExistingCollection } from '@app/persistence';

export type { EventWitness } from '@app/persistence';

/** An event to publish: its name, and the data that name holds (EVENT_DATA_FIELDS), checked where it is made. */
export type EventSpec = { [E in DomainEventName]: { event: E; data: EventDataOf<E> } }[DomainEventName];

/** An event waiting in the outbox, until the relay has published it or found its write never happened. */
export interface PendingEvent {
  /** The event id. */
  _id: string;
  event: DomainEvent;
  witness: EventWitness;
  recorded_at: Date;
  /**
   * The trace context (`traceparent`) of the change that recorded it: the relay publishes it
   * later, from a context of its own, as part of that trace. Absent when tracing is off.
   */
  trace?: Record<string, string>;
}

export const OUTBOX_COLLECTION = 'event_outbox';

/**
 * Events recorded by this process and not yet said written or discarded (their writer failed,
 * say), kept at most this many: past that the oldest are forgotten here, and the relay's pass
 * over the outbox, where they still are, finds them.
 */
const MAX_UNCONFIRMED = 2_000;

/**
 * Where a change records its events, before it writes. FerretDB has no transactions, so the
 * event cannot be committed with the change; instead it is recorded first, naming the document
 * that the change writes (its witness), and the change stores the event ids in that document's
 * `event_ids` in the same write. The relay publishes an event once its witness shows its id,
 * and drops one whose witness never does, so a process killed after its write loses no event
 * (the outbox still holds it) and a write that did not happen publishes none.
 *
 * Usage, always the same two steps:
 *   const eventIds = await outbox.record(clientId, witness, [{ event, data }]);
 *   await collection.insertOne({ _id: witness.key, ..., event_ids: eventIds });   // or
 *   await collection.updateOne({ _id: witness.key }, { $set: ..., $addToSet: { event_ids: { $each: eventIds } } });
 * and, once the write has succeeded, `outbox.written(eventIds)`, which hands them to this
 * process's relay to publish at once. That third step only saves the relay a read of the outbox
 * and a wait for its next pass: an event never said written (its writer died, say) is found by
 * the relay's pass over the outbox, which publishes it once its witness shows its id.
 */
export class EventOutbox implements OnModuleInit {
  private readonly logger = new Logger('EventOutbox');
  /** What this process recorded, by id, until its writer says written or discards it. */
  private readonly unconfirmed = new Map<string, PendingEvent>();
  private onWritten?: (events: PendingEvent[]) => void;

  constructor(private readonly connection: Connection) {}

  get pending() {
    return this.connection.collection<PendingEvent>(OUTBOX_COLLECTION);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(OUTBOX_COLLECTION).catch(ignoreExistingCollection);
    watchOutbox(() => this.state());
  }

  /**
   * How many events wait, and how long the oldest has: the relay's lag, for the metrics. Read
   * at each scrape; the outbox stays small (the relay empties it as events go out).
   */
  async state(now = Date.now()): Promise<{ waiting: number; oldestAgeSeconds: number }> {
    const [waiting, [oldest]] = await Promise.all([
      this.pending.countDocuments({}),
      this.pending
        .find({}, { projection: { recorded_at: 1 } })
        .sort({ recorded_at: 1 })
        .limit(1)
        .toArray(),
    ]);
    return { waiting, oldestAgeSeconds: oldest ? Math.max(0, (now - oldest.recorded_at.getTime()) / 1000) : 0 };
  }

  /** Records the events of a change about to write `witness`; returns their ids, for its `event_ids`. */
  async record(clientId: number, witness: EventWitness, specs: EventSpec[], now = new Date()): Promise<string[]> {
    const trace = traceHeaders();
    const pending: PendingEvent[] = specs.map(({ event, data }) => {
      const id = newEventId();
      return {
        _id: id,
        event: { id, event, client_id: clientId, test_mode: false, created_at: formatTimestamp(now), data },
        witness,
        recorded_at: now,
        ...(trace.traceparent ? { trace } : {}),
      };
    });
    if (pending.length === 0) return [];
    await this.pending.insertMany(pending, { ordered: true });
    if (this.onWritten) {
      // The oldest go first: the relay's pass over the outbox finds them anyway.
      for (const id of this.unconfirmed.keys()) {
        if (this.unconfirmed.size + pending.length <= MAX_UNCONFIRMED) break;
        this.unconfirmed.delete(id);
      }
      for (const event of pending) this.unconfirmed.set(event._id, event);
    }
    return pending.map(({ _id }) => _id);
  }

  /** Where events said written go: the relay of this process, which registers itself. */
  relayTo(onWritten: (events: PendingEvent[]) => void): void {
    this.onWritten = onWritten;
  }

  /**
   * The write that stored these event ids succeeded: they are published now, without the relay
   * reading their witness, rather than at its next pass. Never say it of events whose write
   * failed, or of a write that stored another try's events instead (insertOnce's earlier record).
   */
  written(eventIds: string[]): void {
    const events = eventIds.flatMap((id) => {
      const event = this.unconfirmed.get(id);
      this.unconfirmed.delete(id);
      return event ? [event] : [];
    });
    if (events.length > 0) this.onWritten?.(events);
  }

  /** Drops events whose change is known not to have been written (it lost its claim, say). */
  async discard(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    for (const id of eventIds) this.unconfirmed.delete(id);
    // Only an optimisation: the relay would drop them anyway once their grace has passed.
    await this.remove(eventIds).catch((error: unknown) => {
      this.logger.warn(`discarding events failed: ${String(error)}`);
    });
  }

  /**
   * Which of these events were written: those whose witness carries their id. One read per
   * witness, however many events it carries, each by `_id` alone: on FerretDB an `$in` filter
   * decodes every document of the collection (43 ms among 500 applications, against 3 ms for
   * an `_id`).
   */
  async writtenAmong(batch: PendingEvent[]): Promise<Set<string>> {
    const witnesses = new Map<string, EventWitness>();
    for (const { witness } of batch) witnesses.set(`${witness.collection}/${witness.key}`, witness);
    const shown = new Set<string>();
    await Promise.all(
      [...witnesses.values()].map(async ({ collection, key }) => {
        const document = await this.connection
          .collection<{ _id: string; event_ids?: string[] }>(collection)
          .findOne({ _id: key }, { projection: { event_ids: 1 } });
        for (const id of document?.event_ids ?? []) shown.add(id);
      }),
    );
    return new Set(batch.filter(({ _id }) => shown.has(_id)).map(({ _id }) => _id));
  }

  /** Takes published and dropped events out of the outbox, in one command (the outbox stays small). */
  async remove(eventIds: string[]): Promise<void> {
    if (eventIds.length > 0) await this.pending.deleteMany({ _id: { $in: eventIds } });
  }
}
