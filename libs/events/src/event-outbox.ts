import { Logger, OnModuleInit } from '@nestjs/common';
import { Connection } from 'mongoose';
import { DomainEvent, DomainEventName, EventData, formatTimestamp, newEventId } from '@app/contracts';
import { ignoreExistingCollection } from '@app/persistence';

/**
 * The document whose write makes an event true: the collection and `_id` of the document that
 * the change inserts or updates, which must carry the event's id in its `event_ids` array,
 * stored by that same write.
 */
export interface EventWitness {
  collection: string;
  key: string;
}

export interface EventSpec {
  event: DomainEventName;
  data: EventData;
}

/** An event waiting in the outbox, until the relay has published it or found its write never happened. */
export interface PendingEvent {
  /** The event id. */
  _id: string;
  event: DomainEvent;
  witness: EventWitness;
  recorded_at: Date;
}

export const OUTBOX_COLLECTION = 'event_outbox';

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
 */
export class EventOutbox implements OnModuleInit {
  private readonly logger = new Logger('EventOutbox');

  constructor(private readonly connection: Connection) {}

  get pending() {
    return this.connection.collection<PendingEvent>(OUTBOX_COLLECTION);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(OUTBOX_COLLECTION).catch(ignoreExistingCollection);
  }

  /** Records the events of a change about to write `witness`; returns their ids, for its `event_ids`. */
  async record(clientId: number, witness: EventWitness, specs: EventSpec[], now = new Date()): Promise<string[]> {
    const pending: PendingEvent[] = specs.map(({ event, data }) => {
      const id = newEventId();
      return {
        _id: id,
        event: { id, event, client_id: clientId, test_mode: false, created_at: formatTimestamp(now), data },
        witness,
        recorded_at: now,
      };
    });
    if (pending.length > 0) await this.pending.insertMany(pending, { ordered: true });
    return pending.map(({ _id }) => _id);
  }

  /** Drops events whose change is known not to have been written (it lost its claim, say). */
  async discard(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    // Only an optimisation: the relay would drop them anyway once their grace has passed.
    await this.pending.deleteMany({ _id: { $in: eventIds } }).catch((error: unknown) => {
      this.logger.warn(`discarding events failed: ${String(error)}`);
    });
  }

  /** Whether the change of `pending` was written: its witness carries the event id. */
  async written(pending: PendingEvent): Promise<boolean> {
    const document = await this.connection
      .collection<{ _id: string; event_ids?: string[] }>(pending.witness.collection)
      .findOne({ _id: pending.witness.key }, { projection: { event_ids: 1 } });
    return document?.event_ids?.includes(pending._id) ?? false;
  }
}
