/** What the reference processes read from their environment, set by the bench that starts them. */
export const ECHO_PATTERN = 'echo';
export const GET_PROPERTY_PATTERN = 'property.get';
export const READY_LINE = 'reference ready';

/** Properties stored for the references that read one (get property, find by _id, the floor). */
export const REFERENCE_PROPERTIES = 32;
export const REFERENCE_COLLECTION = 'properties';

/** A stored property as the stack stores one: its id as text in `_id`, an address, one floor plan. */
export function referenceProperty(id: number) {
  return {
    _id: String(id),
    id,
    client_id: 7001,
    available: true,
    kind: 'multi_family',
    name: 'Maple Court',
    street: '12 Maple St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 1,
    background_config_id: 1,
    floor_plans: [{ id, property_id: id, name: 'Maple Court', beds: null, baths: null, deposit: null, rent: null }],
    created_at: new Date('2026-11-22T00:00:00Z'),
    updated_at: new Date('2026-11-22T00:00:00Z'),
    deleted_at: null,
  };
}

export function referenceSettings(): { amqpUrl: string; queue: string; port: number } {
  const { AMQP_URL, REFERENCE_QUEUE, PORT } = process.env;
  if (!AMQP_URL || !REFERENCE_QUEUE) throw new Error('AMQP_URL and REFERENCE_QUEUE must be set');
  return { amqpUrl: AMQP_URL, queue: REFERENCE_QUEUE, port: Number(PORT ?? 0) };
}

/** The database holding the reference properties (REFERENCE_DB on MONGODB_URI). */
export function referenceDatabase(): { uri: string; dbName: string } {
  const { MONGODB_URI, REFERENCE_DB } = process.env;
  if (!MONGODB_URI || !REFERENCE_DB) throw new Error('MONGODB_URI and REFERENCE_DB must be set');
  return { uri: MONGODB_URI, dbName: REFERENCE_DB };
}
