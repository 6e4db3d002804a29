import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, mongo } from 'mongoose';
import { EventWitness } from '@app/events';
import { claimed, documentKey, Keyed, RecordRepository } from '@app/persistence';
import { PropertyRecord, PropertyState, stateOf } from './property.schema';

/** Change `version` of property `property_id`: the whole state it left the property in. */
interface PropertyVersion {
  /** `<property id>:<version>` */
  _id: string;
  property_id: number;
  version: number;
  state: PropertyState;
  /** The request that made the change, when one asked to be known again on its retry. */
  request_key?: string;
  /** The domain events of the change (see EventOutbox). */
  event_ids: string[];
}

/** Bounds the walk along changes the property document does not show yet. */
const MAX_CHAIN = 1000;
/** Properties whose last version seen is remembered, at most; past that the memory starts over. */
const MAX_REMEMBERED_VERSIONS = 10_000;

/**
 * Stored properties, as plain objects; mongoose documents never leave this class.
 *
 * Every change after create is claimed as the property's next version, by inserting
 * `{_id: "<id>:<version>"}` into property_versions with the state it makes: of two writers that
 * read one version, exactly one claims the next (unique `_id`, atomic on MongoDB and FerretDB
 * alike, where find-and-modify is not: 20 concurrent deletes of one property answered 200 up to
 * 11 times), and the other reads again. The property document is then brought up to date; a
 * reader that finds later versions claimed applies them itself, so a writer that dies between
 * its claim and that update, or an update that lands late, loses nothing.
 */
@Injectable()
export class PropertiesRepository extends RecordRepository<PropertyRecord> {
  /** The latest version seen of each property, by id: what the next read guesses it is at. */
  private readonly versionsSeen = new Map<number, number>();

  constructor(@InjectModel(PropertyRecord.name) properties: Model<PropertyRecord>) {
    super(properties);
  }

  /**
   * Reads by the document key alone, then checks the owner and deletion here: a filter on
   * `_id` alone is the one FerretDB answers from an index; any other filter (a unique index
   * notwithstanding) reads and decodes every property, so each read grew with the collection.
   */
  async findLive(clientId: number, id: number): Promise<PropertyRecord | null> {
    const record = await this.findCurrent(id);
    return record && record.client_id === clientId && !record.deleted_at ? record : null;
  }

  /**
   * The property with every claimed change applied, whoever owns it, or null. The document and
   * the claim of the version after the one last seen are read together, in one round trip: when
   * the document is at that version, which it is unless the property changed since, the claim
   * read is the one needed, and the answer is as current as reading them one after the other
   * (claims are only ever added, in order, and a document shows a version only once it is
   * claimed). Otherwise the claim after the document's version is read next, as before.
   */
  async findCurrent(id: number): Promise<PropertyRecord | null> {
    const guess = this.versionsSeen.get(id) ?? 0;
    const [stored, guessedNext] = await Promise.all([this.findByKey(id), this.findVersion(id, guess + 1)]);
    if (!stored) return null;
    let record: PropertyRecord = { ...stored, version: stored.version ?? 0 };
    let next = record.version === guess ? guessedNext : await this.findVersion(id, record.version + 1);
    for (let step = 0; next && step < MAX_CHAIN; step++) {
      record = { ...record, ...next.state, version: next.version };
      next = await this.findVersion(id, record.version + 1);
    }
    this.rememberVersion(id, record.version);
    if (record.version !== (stored.version ?? 0)) await this.refresh(id, record.version, stateOf(record));
    return record;
  }

  private findVersion(id: number, version: number): Promise<PropertyVersion | null> {
    return this.versions.findOne({ _id: versionKey(id, version) });
  }

  private rememberVersion(id: number, version: number): void {
    if (version <= (this.versionsSeen.get(id) ?? 0)) return;
    if (this.versionsSeen.size >= MAX_REMEMBERED_VERSIONS) this.versionsSeen.clear();
    this.versionsSeen.set(id, version);
  }

  /**
   * The client's live properties among `ids`, each with every claimed change applied, read
   * together: one `$in` read of the properties and one of their next versions (an index search
   * each on MongoDB; on FerretDB, one pass over each collection instead of one per property).
   */
  async findLiveMany(clientId: number, ids: number[]): Promise<Map<number, PropertyRecord>> {
    const live = new Map<number, PropertyRecord>();
    if (ids.length === 0) return live;
    const keys = ids.map(documentKey);
    const stored = await this.documents
      .find({ _id: { $in: keys } } as mongo.Filter<Keyed<PropertyRecord>>)
      .limit(keys.length)
      .toArray();
    const records = stored.map((record) => ({ ...record, version: record.version ?? 0 }) as PropertyRecord);
    const nextKeys = records.map((record) => versionKey(record.id, record.version + 1));
    const behind = new Set(
      (
        await this.versions
          .find({ _id: { $in: nextKeys } }, { projection: { property_id: 1 } })
          .limit(nextKeys.length)
          .toArray()
      ).map((version) => version.property_id),
    );
    for (const record of records) {
      // The rare property whose document lags behind a claimed change is read in full.
      const current = behind.has(record.id) ? await this.findCurrent(record.id) : record;
      if (current && current.client_id === clientId && !current.deleted_at) live.set(current.id, current);
    }
    return live;
  }

  /**
   * Claims the version after `current`'s with `state`; false when another change claimed it
   * first, and the caller should read the property again.
   */
  async commit(current: PropertyRecord, state: PropertyState, eventIds: string[] = [], requestKey?: string): Promise<boolean> {
    const version = current.version + 1;
    const claim: PropertyVersion = {
      _id: versionKey(current.id, version),
      property_id: current.id,
      version,
      state,
      event_ids: eventIds,
    };
    if (requestKey !== undefined) claim.request_key = requestKey;
    if (!(await claimed(this.versions.insertOne(claim)))) return false;
    this.rememberVersion(current.id, version);
    await this.refresh(current.id, version, state);
    return true;
  }

  /** The document whose insert creates property `id`, which carries the ids of its events. */
  createdWitness(id: number): EventWitness {
    return { collection: this.model.collection.collectionName, key: documentKey(id) };
  }

  /** The claim of the change after `current`'s version, which carries the ids of its events. */
  nextVersionWitness(current: PropertyRecord): EventWitness {
    return { collection: 'property_versions', key: versionKey(current.id, current.version + 1) };
  }

  /**
   * The client's property as deleted by the request named `requestKey` (its last change, as a
   * deleted property changes no more), or null: for a delete whose answer was lost to find out
   * on its retry that it was done.
   */
  async deletedBy(clientId: number, id: number, requestKey: string): Promise<PropertyRecord | null> {
    const record = await this.findCurrent(id);
    if (!record || record.client_id !== clientId || !record.deleted_at) return null;
    const change = await this.versions.findOne({ _id: versionKey(id, record.version) });
    return change?.request_key === requestKey ? record : null;
  }

  /**
   * Writes a version's state into the property document. Filtered on `_id` alone, so FerretDB
   * finds it by index; a late write may set an older version, which readers walk past.
   */
  private async refresh(id: number, version: number, state: PropertyState): Promise<void> {
    await this.documents.updateOne({ _id: documentKey(id) }, { $set: { ...state, version } });
  }

  private get versions() {
    return this.model.db.collection<PropertyVersion>('property_versions');
  }
}

function versionKey(id: number, version: number): string {
  return `${id}:${version}`;
}
