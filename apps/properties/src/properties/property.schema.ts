import { PropertyKind } from '@app/contracts';

// Floor plans live inside their property: creating both is then one atomic insert, which
// matters on a database without transactions.
export interface FloorPlanRecord {
  id: number;
  property_id: number;
  name: string;
  beds: number | null;
  baths: number | null;
  deposit: number | null;
  rent: number | null;

  /** Names the request that added it, so a request done twice adds it once; never returned. */
  request_key?: string;
}

/**
 * A property as stored in `properties` under its id (in text), every field at the top: the copy
 * its versions bring up to date (see PropertiesRepository).
 */
export interface PropertyRecord {
  id: number;
  client_id: number;
  available: boolean;
  kind: PropertyKind;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;

  /**
   * The landlord or management company applicants deal with, and its contact; "" when unset,
   * absent from properties stored before they were kept.
   */
  manager_name?: string;
  manager_email?: string;
  manager_phone?: string;
  invitation_only: boolean;
  invitation_only_message: string;
  form_preset_id: number;
  background_config_id: number;
  floor_plans: FloorPlanRecord[];
  created_at: Date;
  updated_at: Date;

  /** Names the request that created it, so a request done twice stores it once. */
  request_key: string;

  /** The domain events its creation recorded (see EventOutbox); never returned. */
  event_ids?: string[];

  /**
   * The number of changes made to the property; change n is claimed in property_versions under
   * `<id>:<n>`, which holds the state it made. This document may lag behind the latest change.
   */
  version: number;

  /** Deleted properties are kept, so their ids are never handed out again. */
  deleted_at: Date | null;
}

/** What a change may alter; the rest (id, owner, background config, creation) is fixed at create. */
export const MUTABLE_FIELDS = [
  'form_preset_id',
  'available',
  'kind',
  'name',
  'street',
  'city',
  'state',
  'zip',
  'manager_name',
  'manager_email',
  'manager_phone',
  'invitation_only',
  'invitation_only_message',
  'floor_plans',
  'updated_at',
  'deleted_at',
] as const;

export type PropertyState = Pick<PropertyRecord, (typeof MUTABLE_FIELDS)[number]>;

export function stateOf(record: PropertyRecord): PropertyState {
  return Object.fromEntries(MUTABLE_FIELDS.map((field) => [field, record[field]])) as PropertyState;
}
