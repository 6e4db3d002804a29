import { Injectable, OnModuleInit } from '@nestjs/common';
import { ServiceError } from '@app/contracts';
import { EventOutbox, EventSpec } from '@app/events';
import { Ids, OrderedLists, Storage, Versioned, VersionedRecords } from '@app/persistence';
import { PropertyRecord, PropertyState, stateOf } from './property.schema';

/** Changes of one property that lost their claim to another change read again, this often. */
const MAX_CHANGE_ATTEMPTS = 20;

/** Positions of a client's list read at once while looking for a property that names a preset. */
const PRESET_USE_SCAN_BATCH = 200;

/**
 * What a change decides from the current property: its new state (null for no change) and the
 * answer to give once that state is stored. It may refuse, by throwing a ServiceError.
 */
export type Decision<T> = (current: PropertyRecord) => Decided<T> | Promise<Decided<T>>;

export interface Decided<T> {
  state: PropertyState | null;
  answer: (stored: PropertyRecord) => T;
  /** The domain events the change publishes once stored. */
  events: EventSpec[];
}

/** A change of a property as its claim stores it: the whole state it leaves the property in. */
interface PropertyChange {
  state: PropertyState;
}

/** Of a stretch of a client's list: how many positions it covers, and the live properties at them, newest first. */
export interface ListedProperties {
  read: number;
  properties: Array<{ position: number; property: PropertyRecord }>;
}

/**
 * A client's list as properties and presets are kept in it, named after the client's id: entries
 * `{_id: "<client id>:<position>", client_id, property_id}` (a preset's id, in form_preset_list),
 * and a hint of the newest position as `seq` of `<client id>:head`. The previous release reads
 * the lists in this shape.
 */
export function clientLists(storage: Storage, collection: string): OrderedLists {
  return storage.orderedLists(collection, {
    field: 'property_id',
    entryFields: (name) => ({ client_id: Number(name) }),
    stampEntries: false,
    headHint: 'seq',
  });
}

/**
 * Properties, as versioned records (VersionedRecords): the document in `properties` is a copy that
 * may lag, each change after creation is the claim of the property's next version in
 * `property_versions` (`{_id: "<id>:<version>", property_id, version, state, event_ids,
 * request_key?}`, the whole state it makes), and reads fold in the claims past the copy. Each
 * client's properties are listed in `property_list` in the order they were created. Plain objects
 * in and out.
 */
@Injectable()
export class PropertiesRepository implements OnModuleInit {
  private readonly versions: VersionedRecords<PropertyRecord, PropertyChange>;
  private readonly lists: OrderedLists;
  private readonly ids: Ids;

  constructor(
    storage: Storage,
    private readonly outbox: EventOutbox,
  ) {
    this.versions = storage.versionedRecords<PropertyRecord, PropertyChange>({
      copies: 'properties',
      claims: 'property_versions',
      idField: 'property_id',
      unique: { id_unique: 'id', request_key_unique: 'request_key' },
      fold: (property, claim) => ({ ...property!, ...claim.change.state, version: claim.version }),
      // A copy holds what a change can alter, in whole (see PropertyState).
      copyFields: stateOf,
      stampClaims: false,
    });
    this.lists = clientLists(storage, 'property_list');
    this.ids = storage.ids();
  }

  async onModuleInit(): Promise<void> {
    await this.versions.prepare();
    await this.lists.prepare();
  }

  /** Ids for a new property and its first floor plan, claimed at once. */
  async newIds(): Promise<{ propertyId: number; floorPlanId: number }> {
    const [propertyId, floorPlanId] = await Promise.all([this.ids.allocate('properties'), this.newFloorPlanId()]);
    return { propertyId, floorPlanId };
  }

  newFloorPlanId(): Promise<number> {
    return this.ids.allocate('floor_plans');
  }

  /**
   * Stores a new property once per request (its `request_key`), listed in its client's list, with
   * the events of its creation. Returns the property stored: an earlier try's, for a request done
   * again, which carries that try's events.
   */
  async create(property: Omit<PropertyRecord, 'event_ids'>, events: EventSpec[]): Promise<PropertyRecord> {
    // Listed and its events recorded before it is stored, side by side: a property that exists is
    // always in the list, and the relay drops an event whose property never is.
    const [, eventIds] = await Promise.all([
      this.lists.append(listName(property.client_id), property.id),
      this.outbox.record(property.client_id, this.versions.createdWitness(property.id), events),
    ]);
    const stored = (await this.versions.create(property.id, { ...property, event_ids: eventIds })).state;
    if (stored.id === property.id) this.outbox.written(eventIds);
    else await this.outbox.discard(eventIds);
    return stored;
  }

  /** The property with every claimed change folded in, whoever owns it and deleted or not, or null. */
  async find(id: number): Promise<PropertyRecord | null> {
    const current = await this.versions.current(id);
    return current && propertyAt(current);
  }

  /** The client's property, unless it was deleted; null otherwise. */
  async findLive(clientId: number, id: number): Promise<PropertyRecord | null> {
    const property = await this.find(id);
    return property && isLive(property, clientId) ? property : null;
  }

  /** The client's live properties among `ids`, by id, read together. */
  async findLiveMany(clientId: number, ids: number[]): Promise<Map<number, PropertyRecord>> {
    const live = new Map<number, PropertyRecord>();
    for (const [id, current] of await this.versions.currentMany(ids)) {
      const property = propertyAt(current);
      if (isLive(property, clientId)) live.set(id, property);
    }
    return live;
  }

  /** The newest position of the client's list: as many properties as it ever created. */
  newestPosition(clientId: number): Promise<number> {
    return this.lists.head(listName(clientId));
  }

  /**
   * The client's live properties listed at positions `from`, `from - 1`, ... (`count` of them,
   * down to 1): one read of the list, and one of the properties.
   */
  async listed(clientId: number, from: number, count: number): Promise<ListedProperties> {
    const read = Math.max(0, Math.min(count, from));
    if (read === 0) return { read, properties: [] };
    const entries = await this.lists.read(listName(clientId), from, read);
    const live = await this.findLiveMany(
      clientId,
      entries.map(({ id }) => id),
    );
    const properties = entries.flatMap(({ position, id }) => {
      const property = live.get(id);
      return property ? [{ position, property }] : [];
    });
    return { read, properties };
  }

  /** The id of a live property of the client's whose form_preset_id is `presetId`, or null. */
  async findNamingPreset(clientId: number, presetId: number): Promise<number | null> {
    for (let position = await this.newestPosition(clientId); position >= 1; position -= PRESET_USE_SCAN_BATCH) {
      const { properties } = await this.listed(clientId, position, PRESET_USE_SCAN_BATCH);
      const naming = properties.find(({ property }) => property.form_preset_id === presetId);
      if (naming) return naming.property.id;
    }
    return null;
  }

  /**
   * Changes the client's live property as `decide` says, as the property's next version: when
   * another change claimed that version first, reads the property again and decides again, so
   * no change is lost and none is made from a stale read. Its events are recorded in the outbox
   * first, and published once its claim shows them. `requestKey` names the request in the claim,
   * for its retry to find it done (see deletedBy).
   */
  async change<T>(clientId: number, id: number, decide: Decision<T>, requestKey?: string): Promise<T> {
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.findLive(clientId, id);
      if (!current) throw ServiceError.propertyNotFound(id);
      const { state, answer, events } = await decide(current);
      if (state === null) return answer(current);
      const eventIds = await this.outbox.record(clientId, this.versions.witness(id, current.version + 1), events);
      const changed = await this.versions.claimNext(
        id,
        { version: current.version, state: current },
        { state },
        { event_ids: eventIds, request_key: requestKey },
      );
      if (changed) {
        this.outbox.written(eventIds);
        return answer(propertyAt(changed));
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`property ${id} is being changed by many requests at once; retry`);
  }

  /**
   * The client's property as deleted by the request named `requestKey` (its last change, as a
   * deleted property changes no more), or null: for a delete whose answer was lost to find out
   * on its retry that it was done.
   */
  async deletedBy(clientId: number, id: number, requestKey: string): Promise<PropertyRecord | null> {
    const property = await this.find(id);
    if (!property || property.client_id !== clientId || !property.deleted_at) return null;
    const change = await this.versions.change(id, property.version);
    return change?.request_key === requestKey ? property : null;
  }
}

/** The property at its version: a copy stored before versions were counted has no `version` field. */
function propertyAt({ version, state }: Versioned<PropertyRecord>): PropertyRecord {
  return { ...state, version };
}

function isLive(property: PropertyRecord, clientId: number): boolean {
  return property.client_id === clientId && !property.deleted_at;
}

function listName(clientId: number): string {
  return String(clientId);
}
