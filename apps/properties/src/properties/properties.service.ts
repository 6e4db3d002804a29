import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { EventSpec } from '@app/events';
import { CreateScope, Idempotency } from '@app/persistence';
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
import { Decision, PropertiesRepository } from './properties.repository';
import { changedProperty, invalid } from './property-changes';
import { toPropertyRepresentation } from './property.mapper';
import { PropertyRecord, stateOf } from './property.schema';

/**
 * Positions a list page reads at most, so that a page among many deleted (or, with a filter,
 * non-matching) properties stays bounded; such a page may be short but still has a cursor.
 */
const MAX_LIST_SCAN = 200;

@Injectable()
export class PropertiesService {
  /** The form's base URL, which application_url starts with. */
  private readonly applyBaseUrl: string;

  constructor(
    private readonly repository: PropertiesRepository,
    private readonly idempotency: Idempotency,
    private readonly clientDefaults: ClientDefaults,
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
      const { propertyId: id, floorPlanId } = await this.repository.newIds();
      const now = new Date();
      const created: EventSpec = { event: 'property.created', data: { property_id: id } };
      const stored = await this.repository.create(
        {
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
          floor_plans: [
            { id: floorPlanId, property_id: id, name: input.name, beds: null, baths: null, deposit: null, rent: null },
          ],
          created_at: now,
          updated_at: now,
          request_key: requestKey,
          deleted_at: null,
          version: 0,
        },
        [created],
      );
      // On a redelivery the property is the first try's.
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
    let position = page.before !== undefined ? page.before - 1 : await this.repository.newestPosition(clientId);
    let scanned = 0;
    while (position >= 1 && found.length <= page.limit && scanned < MAX_LIST_SCAN) {
      // With a filter, read ahead: each round is a pass over the collections on FerretDB.
      const needed = page.limit + 1 - found.length;
      const wanted = Math.min(available === undefined ? needed : needed * 4, MAX_LIST_SCAN - scanned);
      const { read, properties } = await this.repository.listed(clientId, position, wanted);
      for (const { position: seq, property } of properties) {
        if (available === undefined || property.available === available) found.push({ seq, record: property });
      }
      position -= read;
      scanned += read;
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
   * Changes the client's live property as `decide` says, as its next version (see
   * PropertiesRepository.change): a change that lost its version to another decides again.
   */
  change<T>(clientId: number, id: number, decide: Decision<T>, requestKey?: string): Promise<T> {
    return this.repository.change(clientId, id, decide, requestKey);
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
    const record = await this.repository.find(id);
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
