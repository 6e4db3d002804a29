import { Injectable } from '@nestjs/common';
import {
  encodeCursor,
  entityTag,
  FORM_PRESETS,
  FormPreset,
  FormPresetChanges,
  FormPresetInput,
  formPresetNotFound,
  Page,
  PageRequest,
  ServiceError,
  tagListMatches,
} from '@app/contracts';
import { EventSpec } from '@app/events';
import { CreateScope, Idempotency } from '@app/persistence';
import { PropertiesRepository } from '../properties/properties.repository';
import { changedContent, toFormPresetRepresentation } from './form-preset.mapper';
import { FormPresetContent, FormPresetsRepository, FormPresetVersion } from './form-presets.repository';

/** Changes of one preset that lost their claim to another change read again, this often. */
const MAX_CHANGE_ATTEMPTS = 20;
/** Positions a list page reads at most (see PropertiesService). */
const MAX_LIST_SCAN = 200;

type LiveVersion = FormPresetVersion & { content: FormPresetContent };

const isLive = (version: FormPresetVersion | null): version is LiveVersion => version !== null && version.content !== null;

function presetEvent(change: 'created' | 'updated' | 'deleted', id: number): EventSpec {
  return { event: `form_preset.${change}`, data: { form_preset_id: id } };
}

/** The shipped preset `id`, or undefined. */
function shipped(id: number): FormPreset | undefined {
  return FORM_PRESETS.find((preset) => preset.id === id);
}

@Injectable()
export class FormPresetsService {
  constructor(
    private readonly repository: FormPresetsRepository,
    private readonly idempotency: Idempotency,
    private readonly properties: PropertiesRepository,
  ) {}

  /** Stores version 1 of a new preset of the client's; once per request. */
  create(clientId: number, input: FormPresetInput, scope: Omit<CreateScope, 'clientId' | 'body'>): Promise<FormPreset> {
    return this.idempotency.run({ ...scope, clientId, body: input }, async (requestKey) => {
      const id = await this.repository.claimCreation(clientId, requestKey, await this.repository.newId());
      const first = { preset_id: id, client_id: clientId, content: changedContent(null, input), request_key: requestKey };
      // On a retry the version is the first try's.
      const stored = await this.repository.create(first, [presetEvent('created', id)]);
      return this.represent(stored as LiveVersion);
    });
  }

  /** The client's preset or a shipped one: its current version, or `version`. */
  async get(clientId: number, id: number, version?: number): Promise<FormPreset> {
    const fixed = shipped(id);
    if (fixed) {
      if (version !== undefined && version !== fixed.version) throw formPresetNotFound(id, version);
      return fixed;
    }
    const current = await this.findLive(clientId, id);
    if (version === undefined || version === current.version) return this.represent(current);
    const earlier = version < current.version ? await this.repository.findVersion(id, version) : null;
    if (!isLive(earlier)) throw formPresetNotFound(id, version);
    return this.represent(earlier);
  }

  /**
   * A page of the client's presets, newest first, then the shipped ones. Positions above the
   * number of shipped presets are the client's list, shifted up by it; those
   * at or below it are the shipped presets, so one cursor walks through both.
   */
  async listPage(clientId: number, page: PageRequest): Promise<Page<FormPreset>> {
    const offset = FORM_PRESETS.length;
    const found: Array<{ position: number; preset: FormPreset }> = [];
    let position = page.before !== undefined ? page.before - 1 : (await this.repository.newestPosition(clientId)) + offset;
    let scanned = 0;
    while (position >= 1 && found.length <= page.limit && scanned < MAX_LIST_SCAN) {
      if (position <= offset) {
        found.push({ position, preset: FORM_PRESETS[position - 1] });
        position -= 1;
        continue;
      }
      const wanted = Math.min(page.limit + 1 - found.length, MAX_LIST_SCAN - scanned);
      const { read, presets } = await this.repository.listed(clientId, position - offset, wanted);
      for (const { position: seq, current } of presets) {
        if (isLive(current) && current.client_id === clientId)
          found.push({ position: seq + offset, preset: this.represent(current) });
      }
      position -= read;
      scanned += read;
    }
    const items = found.slice(0, page.limit);
    let next: number | null = null;
    if (found.length > page.limit) next = items[items.length - 1].position;
    else if (position >= 1) next = position + 1;
    return { items: items.map(({ preset }) => preset), next_cursor: next === null ? null : encodeCursor(next) };
  }

  /** Makes the changes the preset's next version; the versions before stay readable as they were. */
  async update(clientId: number, id: number, changes: FormPresetChanges, ifMatch?: string, requestKey = ''): Promise<FormPreset> {
    this.refuseShipped(id, 'changed');
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.findLive(clientId, id);
      this.checkIfMatch(ifMatch, current);
      const content = changedContent(current.content, changes);
      if (JSON.stringify(content) === JSON.stringify(current.content)) return this.represent(current);
      const next = await this.claimNext(current, content, requestKey, 'updated');
      if (next) return this.represent(next as LiveVersion);
    }
    throw ServiceError.unavailable(`form preset ${id} is being changed by many requests at once; retry`);
  }

  /**
   * Deletes the preset unless a live property of the client names it. Its versions are kept, for
   * the applications filled with them. A retry (the same `requestKey`) of a delete whose answer
   * was lost finds its own deletion and answers as the first try did.
   */
  async delete(clientId: number, id: number, ifMatch: string | undefined, requestKey: string): Promise<void> {
    this.refuseShipped(id, 'deleted');
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.repository.findCurrent(id);
      if (current && current.client_id === clientId && current.content === null && current.request_key === requestKey) return;
      if (!isLive(current) || current.client_id !== clientId) throw formPresetNotFound(id);
      this.checkIfMatch(ifMatch, current);
      const user = await this.properties.findNamingPreset(clientId, id);
      if (user !== null) {
        throw ServiceError.conflict(
          `form preset ${id} is the form_preset_id of property ${user}; give that property another preset before deleting it`,
        );
      }
      if (await this.claimNext(current, null, requestKey, 'deleted')) return;
    }
    throw ServiceError.unavailable(`form preset ${id} is being changed by many requests at once; retry`);
  }

  /**
   * Whether the client may name preset `id` as a property's form_preset_id: a shipped preset or a
   * live one of its own.
   */
  async usable(clientId: number, id: number): Promise<boolean> {
    if (shipped(id)) return true;
    const current = await this.repository.findCurrent(id);
    return isLive(current) && current.client_id === clientId;
  }

  /**
   * The preset the form shows for a property of `clientId`'s: `version` of it when given (an
   * applicant keeps the version they started with, even after the preset changed or was
   * deleted), else its current version, or its last one when it was deleted. Null when it names
   * none of the client's.
   */
  async forForm(clientId: number, id: number, version?: number): Promise<FormPreset | null> {
    const fixed = shipped(id);
    if (fixed) return fixed;
    let found = version === undefined ? await this.repository.findCurrent(id) : await this.repository.findVersion(id, version);
    if (!found || found.client_id !== clientId) return null;
    if (found.content === null) found = await this.repository.findVersion(id, found.version - 1);
    return isLive(found) ? this.represent(found) : null;
  }

  /**
   * Claims the version after `current` with `content`, its event published once the claim shows
   * it; null when another change claimed that version first.
   */
  private claimNext(
    current: FormPresetVersion,
    content: FormPresetContent | null,
    requestKey: string,
    change: 'updated' | 'deleted',
  ): Promise<FormPresetVersion | null> {
    return this.repository.change(current, content, requestKey, [presetEvent(change, current.preset_id)]);
  }

  private async findLive(clientId: number, id: number): Promise<LiveVersion> {
    const current = await this.repository.findCurrent(id);
    if (!isLive(current) || current.client_id !== clientId) throw formPresetNotFound(id);
    return current;
  }

  private refuseShipped(id: number, what: 'changed' | 'deleted'): void {
    if (shipped(id)) {
      throw ServiceError.conflict(
        `form preset ${id} ships with the service and cannot be ${what}; create a preset of your own instead`,
      );
    }
  }

  private checkIfMatch(ifMatch: string | undefined, current: LiveVersion): void {
    if (ifMatch !== undefined && !tagListMatches(ifMatch, entityTag(this.represent(current)), 'strong'))
      throw ServiceError.preconditionFailed();
  }

  private represent(version: LiveVersion): FormPreset {
    return toFormPresetRepresentation(version);
  }
}
