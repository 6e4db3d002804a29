import { Injectable, OnModuleInit } from '@nestjs/common';
import { FormPreset } from '@app/contracts';
import { EventOutbox, EventSpec } from '@app/events';
import { ClaimedChange, Ids, OnceRecords, OrderedLists, Storage, VersionedRecords } from '@app/persistence';
import { clientLists } from '../properties/properties.repository';

/**
 * Ids up to this one are kept for presets that ship with the service (FORM_PRESETS): a client's
 * preset never shares an id with one, today's or a later release's.
 */
export const SHIPPED_PRESET_IDS = 100;

/** What a version of a preset holds: everything but its id, version and `default`. */
export type FormPresetContent = Omit<FormPreset, 'id' | 'version' | 'default'>;

/** Version `version` of preset `preset_id`, as it was made; never changed once stored. */
export interface FormPresetVersion {
  preset_id: number;
  client_id: number;
  version: number;
  /** Null on the version that deleted the preset. */
  content: FormPresetContent | null;
  created_at: Date;
  /** The request that made the version, so that its retry knows it was done. */
  request_key: string;
  /** The domain events of the version (see EventOutbox). */
  event_ids: string[];
}

/** What the claim of a version holds besides what every claim does: the whole version. */
interface FormPresetClaim {
  client_id: number;
  content: FormPresetContent | null;
}

/** Which preset the create request named by its key made. */
interface FormPresetCreation {
  preset_id: number;
}

/** Of a stretch of a client's list: how many positions it covers, and the presets' current versions at them, newest first. */
export interface ListedPresets {
  read: number;
  presets: Array<{ position: number; current: FormPresetVersion }>;
}

/**
 * Clients' presets, every version kept, as version-only records (VersionedRecords): version n of
 * preset p is the claim `{_id: "p:n", preset_id, version, client_id, content, created_at,
 * event_ids, request_key}` in form_preset_versions, inserted once and never changed, so any
 * (id, version) reads back as it was; `form_presets` keeps a hint of each preset's latest version
 * (`{_id, client_id, version}`) that readers walk past. Each client's presets are listed in
 * form_preset_list as its properties are in theirs, and form_preset_creations says which preset
 * each create request made. Plain objects in and out.
 */
@Injectable()
export class FormPresetsRepository implements OnModuleInit {
  private readonly versions: VersionedRecords<FormPresetVersion, FormPresetClaim>;
  private readonly creations: OnceRecords<FormPresetCreation>;
  private readonly lists: OrderedLists;
  private readonly ids: Ids;

  constructor(
    storage: Storage,
    private readonly outbox: EventOutbox,
  ) {
    this.versions = storage.versionedRecords<FormPresetVersion, FormPresetClaim>({
      copies: 'form_presets',
      claims: 'form_preset_versions',
      idField: 'preset_id',
      copy: 'versionOnly',
      hint: ({ client_id }) => ({ client_id }),
      fold: (_before, claim) => versionOf(claim),
    });
    this.creations = storage.onceRecords<FormPresetCreation>('form_preset_creations');
    this.lists = clientLists(storage, 'form_preset_list');
    this.ids = storage.ids();
  }

  async onModuleInit(): Promise<void> {
    await this.versions.prepare();
    await this.creations.prepare();
    await this.lists.prepare();
  }

  /** An id for a new preset, above those of the shipped presets. */
  async newId(): Promise<number> {
    return SHIPPED_PRESET_IDS + (await this.ids.allocate('form_presets'));
  }

  /**
   * The preset the create request `requestKey` of the client makes: `candidate` when this call is
   * the first to ask, else the one an earlier try of the same request claimed. The candidate is
   * listed before, so that a preset that exists is always in the list; a retry's own candidate is
   * listed too, but never stored, and a list page skips it.
   */
  async claimCreation(clientId: number, requestKey: string, candidate: number): Promise<number> {
    await this.lists.append(listName(clientId), candidate);
    return (await this.creations.claimOrRead(requestKey, { preset_id: candidate })).record.preset_id;
  }

  /**
   * Stores version 1 of preset `first.preset_id` with the events of its creation, once: an
   * earlier try of the request stored it when it is there already, and that try's is the answer.
   */
  async create(first: Pick<FormPresetVersion, 'preset_id' | 'client_id' | 'content' | 'request_key'>, events: EventSpec[]) {
    const { preset_id: id } = first;
    const stored = await this.claim(id, null, first, events);
    if (stored) return stored;
    // That try may have died before writing the hint, which the previous release lists by.
    const current = await this.versions.current(id);
    if (current) await this.versions.writeCopy(id, current);
    const earlier = await this.findVersion(id, 1);
    if (!earlier) throw new Error(`version 1 of form preset ${id} is claimed but cannot be read`);
    return earlier;
  }

  /**
   * Claims the version after `current` with `content` (null deletes the preset), with its events;
   * null when another change claimed that version first, and the caller should read it again.
   */
  change(
    current: FormPresetVersion,
    content: FormPresetContent | null,
    requestKey: string,
    events: EventSpec[],
  ): Promise<FormPresetVersion | null> {
    return this.claim(current.preset_id, current, { client_id: current.client_id, content, request_key: requestKey }, events);
  }

  /** Version `version` of preset `id`, whoever owns it, or null. */
  async findVersion(id: number, version: number): Promise<FormPresetVersion | null> {
    const claim = await this.versions.change(id, version);
    return claim && versionOf(claim);
  }

  /** The latest version of preset `id` (the deleting one, when it was deleted), or null. */
  async findCurrent(id: number): Promise<FormPresetVersion | null> {
    return (await this.versions.current(id))?.state ?? null;
  }

  /** The latest versions of the presets `ids`, by id: two reads when no hint lags. */
  async findCurrentMany(ids: number[]): Promise<Map<number, FormPresetVersion>> {
    const found = new Map<number, FormPresetVersion>();
    for (const [id, { state }] of await this.versions.currentMany(ids)) found.set(id, state);
    return found;
  }

  /** The newest position of the client's list of presets. */
  newestPosition(clientId: number): Promise<number> {
    return this.lists.head(listName(clientId));
  }

  /** The presets listed at positions `from`, `from - 1`, ... (`count` of them, down to 1), as they are now. */
  async listed(clientId: number, from: number, count: number): Promise<ListedPresets> {
    const read = Math.max(0, Math.min(count, from));
    if (read === 0) return { read, presets: [] };
    const entries = await this.lists.read(listName(clientId), from, read);
    const current = await this.findCurrentMany(entries.map(({ id }) => id));
    const presets = entries.flatMap(({ position, id }) => {
      const version = current.get(id);
      return version ? [{ position, current: version }] : [];
    });
    return { read, presets };
  }

  /**
   * Claims the version after `current` (version 1 for none), its events recorded first and
   * published once the claim shows them; null when that version was claimed before.
   */
  private async claim(
    id: number,
    current: FormPresetVersion | null,
    next: FormPresetClaim & { request_key: string },
    events: EventSpec[],
  ): Promise<FormPresetVersion | null> {
    const version = (current?.version ?? 0) + 1;
    const eventIds = await this.outbox.record(next.client_id, this.versions.witness(id, version), events);
    const claimed = await this.versions.claimNext(
      id,
      current && { version: current.version, state: current },
      { client_id: next.client_id, content: next.content },
      { request_key: next.request_key, event_ids: eventIds },
    );
    if (claimed) this.outbox.written(eventIds);
    else await this.outbox.discard(eventIds);
    return claimed?.state ?? null;
  }
}

/** The version a claim stores: the whole of it. */
function versionOf(claim: ClaimedChange<FormPresetClaim>): FormPresetVersion {
  return {
    preset_id: claim.id,
    client_id: claim.change.client_id,
    version: claim.version,
    content: claim.change.content,
    created_at: claim.at,
    request_key: claim.request_key ?? '',
    event_ids: claim.event_ids,
  };
}

function listName(clientId: number): string {
  return String(clientId);
}
