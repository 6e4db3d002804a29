import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { EventOutbox, EventSpec } from '@app/events';
import { CreateScope, IdAllocator, Idempotency } from '@app/persistence';
import {
  encodeCursor,
  entityTag,
  ErrorCode,
  FormProperty,
  Page,
  PageRequest,
  PROPERTY_DEFAULTS,
  PropertyChanges,
  PropertyInput,
  PropertyRepresentation,
  PropertySummary,
  ServiceError,
  tagListMatches,
} from '@app/contracts';
import { PropertiesEnvironment } from '../config/properties.environment';
import { FormPresetsService } from '../form-presets/form-presets.service';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { changedProperty, invalid } from './property-changes';
import { PropertyList } from './property-list';
import { toPropertyRepresentation } from './property.mapper';
import { PropertyRecord, PropertyState, stateOf } from './property.schema';

/** Changes of one property that lost their claim to another change read again, this often. */
const MAX_CHANGE_ATTEMPTS = 20;

/**
 * Positions a list page reads at most, so that a page among many deleted (or, with a filter,
 * non-matching) properties stays bounded; such a page may be short but still has a cursor.
 */
const MAX_LIST_SCAN = 200;

/**
 * What a change decides from the current property: its new state (null for no change) and the
 * answer to give once that state is stored. It may refuse, by throwing a ServiceError.
 */
export type Decision<T> = (current: PropertyRecord) => {
  state: PropertyState | null;
  answer: (stored: PropertyRecord) => T;
  /** The domain events the change publishes once stored. */
  events: EventSpec[];
};

@Injectable()
export class PropertiesService {
  /** The form's base URL, which application_url starts with. */
  private readonly applyBaseUrl: string;

  constructor(
    private readonly repository: PropertiesRepository,
    private readonly ids: IdAllocator,
    private readonly idempotency: Idempotency,
    private readonly clientDefaults: ClientDefaults,
    private readonly list: PropertyList,
    private readonly outbox: EventOutbox,
    private readonly presets: FormPresetsService,
    env: PropertiesEnvironment,
  ) {
    this.applyBaseUrl = publicBase(env.APPLY_BASE_URL);
  }

  /** Creates the property with its one default floor plan, named after it; once per request. */
  async create(
    clientId: number,
    input: PropertyInput,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
  ): Promise<PropertyRepresentation> {
    const defaults = this.clientDefaults.for(clientId);
    const formPresetId = input.form_preset_id ?? defaults.form_preset_id;
    await this.requireUsablePreset(clientId, formPresetId, input.form_preset_id === undefined);
    return this.idempotency.run({ ...scope, clientId, body: input }, async (requestKey) => {
      const [id, floorPlanId] = await Promise.all([this.ids.allocate('properties'), this.ids.allocate('floor_plans')]);
      // Listed and its event recorded before it is stored, side by side: a property that exists is
      // always in the list, and the relay drops an event whose property never is.
      const created: EventSpec = { event: 'property.created', data: { property_id: id } };
      const [, eventIds] = await Promise.all([
        this.list.append(clientId, id),
        this.outbox.record(clientId, this.repository.createdWitness(id), [created]),
      ]);
      const now = new Date();
      const stored = await this.repository.insertOnce({
        id,
        client_id: clientId,
        available: input.available ?? PROPERTY_DEFAULTS.available,
        kind: input.kind ?? PROPERTY_DEFAULTS.kind,
        name: input.name,
        street: input.street ?? '',
        city: input.city ?? '',
        state: input.state ?? '',
        zip: input.zip ?? '',
        manager_name: input.manager_name ?? '',
        manager_email: input.manager_email ?? '',
        manager_phone: input.manager_phone ?? '',
        invitation_only: input.invitation_only ?? PROPERTY_DEFAULTS.invitation_only,
        invitation_only_message: input.invitation_only_message ?? PROPERTY_DEFAULTS.invitation_only_message,
        form_preset_id: formPresetId,
        background_config_id: defaults.background_config_id,
        floor_plans: [{ id: floorPlanId, property_id: id, name: input.name, beds: null, baths: null, deposit: null, rent: null }],
        created_at: now,
        updated_at: now,
        request_key: requestKey,
        deleted_at: null,
        version: 0,
        event_ids: eventIds,
      });
      // On a redelivery the record is the first try's, which carries that try's events.
      if (stored.id === id) this.outbox.written(eventIds);
      else await this.outbox.discard(eventIds);
      return toPropertyRepresentation(stored, this.applyBaseUrl);
    });
  }

  async get(clientId: number, id: number): Promise<PropertyRepresentation> {
    const record = await this.repository.findLive(clientId, id);
    if (!record) throw ServiceError.propertyNotFound(id);
    return toPropertyRepresentation(record, this.applyBaseUrl);
  }

  /** A page of the client's live properties, newest first; `available` keeps only those that match. */
  async listPage(clientId: number, page: PageRequest, available?: boolean): Promise<Page<PropertyRepresentation>> {
    const found: Array<{ seq: number; record: PropertyRecord }> = [];
    let position = page.before !== undefined ? page.before - 1 : await this.list.highest(clientId);
    let scanned = 0;
    while (position >= 1 && found.length <= page.limit && scanned < MAX_LIST_SCAN) {
      // With a filter, read ahead: each round is a pass over the collections on FerretDB.
      const needed = page.limit + 1 - found.length;
      const wanted = Math.min(available === undefined ? needed : needed * 4, MAX_LIST_SCAN - scanned);
      const entries = await this.list.at(clientId, position, wanted);
      const ids = entries.map(({ propertyId }) => propertyId).filter((id): id is number => id !== null);
      const records = await this.repository.findLiveMany(clientId, ids);
      entries.forEach(({ seq, propertyId }) => {
        const record = propertyId === null ? undefined : records.get(propertyId);
        if (record && (available === undefined || record.available === available)) found.push({ seq, record });
      });
      position -= entries.length;
      scanned += entries.length;
    }
    const items = found.slice(0, page.limit);
    // More follow if a match beyond this page was seen, or the scan stopped before position 1.
    let next: number | null = null;
    if (found.length > page.limit) next = items[items.length - 1].seq;
    else if (position >= 1) next = position + 1;
    return {
      items: items.map(({ record }) => toPropertyRepresentation(record, this.applyBaseUrl)),
      next_cursor: next === null ? null : encodeCursor(next),
    };
  }

  /** Applies the changes; `ifMatch` (an If-Match header) must name the current representation. */
  async update(clientId: number, id: number, changes: PropertyChanges, ifMatch?: string): Promise<PropertyRepresentation> {
    if (changes.form_preset_id !== undefined) await this.requireUsablePreset(clientId, changes.form_preset_id, false);
    return this.change(clientId, id, (current) => {
      this.checkIfMatch(ifMatch, this.represent(current));
      return {
        state: changedProperty(current, changes, new Date()),
        answer: (stored) => this.represent(stored),
        events: [{ event: 'property.updated', data: { property_id: id } }],
      };
    });
  }

  /**
   * Of deletes racing each other exactly one answers with the property; the rest find none. The
   * one whose answer was lost (its process stopped after the deletion was claimed) answers the
   * same on its redelivery, `requestKey` naming it: the property as it was, still undeleted.
   * A deletion leaves `updated_at` as it was, so that this answer is the first one exactly.
   */
  async delete(clientId: number, id: number, ifMatch?: string, requestKey?: string): Promise<PropertyRepresentation> {
    try {
      return await this.change(
        clientId,
        id,
        (current) => {
          const representation = this.represent(current);
          this.checkIfMatch(ifMatch, representation);
          return {
            state: { ...stateOf(current), deleted_at: new Date() },
            answer: () => representation,
            events: [{ event: 'property.deleted', data: { property_id: id } }],
          };
        },
        requestKey,
      );
    } catch (error) {
      if (requestKey === undefined || !(error instanceof ServiceError) || error.code !== ErrorCode.PROPERTY_NOT_FOUND)
        throw error;
      const deleted = await this.repository.deletedBy(clientId, id, requestKey);
      if (!deleted) throw error;
      return this.represent({ ...deleted, deleted_at: null });
    }
  }

  /**
   * Changes the client's live property as `decide` says, as the property's next version: when
   * another change claimed that version first, reads the property again and decides again, so
   * no change is lost and none is made from a stale read. Its events are recorded in the
   * outbox first, and published once its claim shows them.
   */
  async change<T>(clientId: number, id: number, decide: Decision<T>, requestKey?: string): Promise<T> {
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.repository.findLive(clientId, id);
      if (!current) throw ServiceError.propertyNotFound(id);
      const { state, answer, events } = decide(current);
      if (state === null) return answer(current);
      const eventIds = await this.outbox.record(clientId, this.repository.nextVersionWitness(current), events);
      if (await this.repository.commit(current, state, eventIds, requestKey)) {
        this.outbox.written(eventIds);
        return answer({ ...current, ...state, version: current.version + 1 });
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`property ${id} is being changed by many requests at once; retry`);
  }

  /**
   * A 422 unless the client may name preset `id`. A configured default (CLIENT_DEFAULTS) may name
   * a preset of the client's that was deleted since: the message then says where the id came from.
   */
  private async requireUsablePreset(clientId: number, id: number, configured: boolean): Promise<void> {
    if (await this.presets.usable(clientId, id)) return;
    const message = configured
      ? `is required: the default form preset configured for this client (${id}) cannot be found`
      : `must name one of your form presets or a shipped one: form preset ${id} cannot be found`;
    throw invalid('property.form_preset_id', message);
  }

  /** A 412 unless the If-Match header, when there is one, names this representation. */
  checkIfMatch(ifMatch: string | undefined, representation: unknown): void {
    if (ifMatch !== undefined && !tagListMatches(ifMatch, entityTag(representation), 'strong'))
      throw ServiceError.preconditionFailed();
  }

  private represent(record: PropertyRecord): PropertyRepresentation {
    return toPropertyRepresentation(record, this.applyBaseUrl);
  }

  /**
   * The live property `id`, whoever owns it, with its owner: what the public application form
   * shows. Deleted and unknown properties are null alike.
   */
  /**
   * The property the form shows, whoever owns it; null for an unknown id. A deleted one is
   * PROPERTY_DELETED, with nothing of it: its links say it no longer takes applications.
   */
  async findForForm(id: number): Promise<FormProperty | null> {
    const record = await this.repository.findCurrent(id);
    if (!record) return null;
    if (record.deleted_at) {
      throw new ServiceError(ErrorCode.PROPERTY_DELETED, `property ${id} no longer takes applications`);
    }
    return { client_id: record.client_id, property: this.represent(record) };
  }

  /** Another client's property, a deleted one and an unknown id all look the same: null. */
  async lookup(clientId: number, id: number): Promise<PropertySummary | null> {
    const record = await this.repository.findLive(clientId, id);
    return record ? { id: record.id, name: record.name } : null;
  }
}
