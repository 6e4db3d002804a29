/**
 * The document whose write makes an event true: the collection and `_id` of the document that
 * the change inserts or updates, which must carry the event's id in its `event_ids` array,
 * stored by that same write (see EventOutbox in libs/events).
 */
export interface EventWitness {
  collection: string;
  key: string;
}
