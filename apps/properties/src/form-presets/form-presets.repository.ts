import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { FormPreset } from '@app/contracts';
import { EventWitness } from '@app/events';
import { claimed, documentKey } from '@app/persistence';

/** What a version of a preset holds: everything but its id, version and `default`. */
export type FormPresetContent = Omit<FormPreset, 'id' | 'version' | 'default'>;

/** Version `version` of preset `preset_id`, as it was made; never changed once stored. */
export interface FormPresetVersion {
  /** `<preset id>:<version>` */
  _id: string;
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

/** A hint of preset `_id`'s latest version: written after each claim, so it may lag, and a late write may set it back. */
interface FormPresetHead {
  _id: string;
  client_id: number;
  version: number;
}

/** Which preset the create request `_id` (its request key) made. */
interface FormPresetCreation {
  _id: string;
  preset_id: number;
}

/** Bounds the walk along versions the head does not show yet. */
const MAX_CHAIN = 1000;

/**
 * Clients' presets, every version kept, read by `_id` alone (the one filter FerretDB answers
 * from an index; see PropertiesRepository).
 *
 * Each version is a document of its own under `<id>:<version>`, inserted once: of two changes
 * made from one version, exactly one claims the next (unique `_id`, atomic on MongoDB and
 * FerretDB alike) and the other reads again, so no version is ever overwritten or lost, and any
 * (id, version) reads back as it was. The head document only hints where the chain ends; a
 * reader walks past it to the last version claimed.
 */
@Injectable()
export class FormPresetsRepository {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get versions() {
    return this.connection.collection<FormPresetVersion>('form_preset_versions');
  }

  private get heads() {
    return this.connection.collection<FormPresetHead>('form_presets');
  }

  private get creations() {
    return this.connection.collection<FormPresetCreation>('form_preset_creations');
  }

  /**
   * The preset the create request `requestKey` made: `id` when this call is the first to ask,
   * else the one an earlier try of the same request claimed.
   */
  async claimCreation(requestKey: string, id: number): Promise<number> {
    if (await claimed(this.creations.insertOne({ _id: requestKey, preset_id: id }))) return id;
    const earlier = await this.creations.findOne({ _id: requestKey });
    if (!earlier) throw new Error(`the creation of request ${requestKey} is claimed but cannot be read`);
    return earlier.preset_id;
  }

  /**
   * Stores version 1 and its head, once: `inserted` is false when an earlier try of the request
   * stored it, and `stored` is then that try's.
   */
  async insertFirst(first: Omit<FormPresetVersion, '_id'>): Promise<{ stored: FormPresetVersion; inserted: boolean }> {
    const record = { _id: versionKey(first.preset_id, 1), ...first };
    const inserted = await claimed(this.versions.insertOne(record));
    await claimed(this.heads.insertOne({ _id: documentKey(first.preset_id), client_id: first.client_id, version: 1 }));
    return { stored: inserted ? record : ((await this.versions.findOne({ _id: record._id })) ?? record), inserted };
  }

  /** The version whose insert makes version `version` of preset `id`, which carries the ids of its events. */
  witness(id: number, version: number): EventWitness {
    return { collection: 'form_preset_versions', key: versionKey(id, version) };
  }

  /** Version `version` of preset `id`, whoever owns it, or null. */
  findVersion(id: number, version: number): Promise<FormPresetVersion | null> {
    return this.versions.findOne({ _id: versionKey(id, version) });
  }

  /** The latest version of preset `id` (the deleting one, when it was deleted), or null. */
  async findCurrent(id: number): Promise<FormPresetVersion | null> {
    const head = await this.heads.findOne({ _id: documentKey(id) });
    const hinted = await this.findVersion(id, head?.version ?? 1);
    return hinted && this.walk(hinted);
  }

  /** The latest versions of the presets `ids`, by id: two `$in` reads when no head lags. */
  async findCurrentMany(ids: number[]): Promise<Map<number, FormPresetVersion>> {
    const found = new Map<number, FormPresetVersion>();
    if (ids.length === 0) return found;
    const heads = await this.heads.find({ _id: { $in: ids.map(documentKey) } }).toArray();
    const keys = heads.flatMap((head) => [
      versionKey(Number(head._id), head.version),
      versionKey(Number(head._id), head.version + 1),
    ]);
    const versions = keys.length === 0 ? [] : await this.versions.find({ _id: { $in: keys } }).toArray();
    const byKey = new Map(versions.map((version) => [version._id, version]));
    for (const head of heads) {
      const id = Number(head._id);
      const hinted = byKey.get(versionKey(id, head.version));
      const next = byKey.get(versionKey(id, head.version + 1));
      // The rare preset whose head lags more than one version behind is walked on its own.
      const current = next ? await this.walk(next) : hinted;
      if (current) found.set(id, current);
    }
    return found;
  }

  /**
   * Claims the version after `current` for `next`; false when another change claimed it first,
   * and the caller should read the preset again.
   */
  async claimNext(
    current: FormPresetVersion,
    next: Pick<FormPresetVersion, 'content' | 'created_at' | 'request_key' | 'event_ids'>,
  ): Promise<FormPresetVersion | null> {
    const version = current.version + 1;
    const record: FormPresetVersion = {
      _id: versionKey(current.preset_id, version),
      preset_id: current.preset_id,
      client_id: current.client_id,
      version,
      ...next,
    };
    if (!(await claimed(this.versions.insertOne(record)))) return null;
    await this.heads.updateOne({ _id: documentKey(current.preset_id) }, { $set: { version } });
    return record;
  }

  private async walk(from: FormPresetVersion): Promise<FormPresetVersion> {
    let current = from;
    for (let step = 0; step < MAX_CHAIN; step++) {
      const next = await this.findVersion(current.preset_id, current.version + 1);
      if (!next) break;
      current = next;
    }
    return current;
  }
}

function versionKey(id: number, version: number): string {
  return `${id}:${version}`;
}
