import { Connection } from 'mongoose';
import type { EventWitness } from '../event-witness';
import { ClaimedChange, Keyed, ScanFilter, Versioned, VersionedRecords, VersionedSpec } from '../storage';
import { DriverOnceRecords } from './once-records';
import { DriverRecords } from './records';

/** Bounds the walk along claims that a copy does not show yet. */
const MAX_CHAIN = 1000;
/** Records whose latest state is remembered, at most; past that the memory starts over. */
const MAX_REMEMBERED = 5_000;
/** How long a remembered state serves as the place a read starts from. */
const REMEMBER_MS = 60_000;
/** Claims read by `_id` in one round trip when a caller walks through many of one record's. */
const CLAIMS_READ_AT_ONCE = 100;

/** A claim as stored: the change's fields at the top, beside the record's id and the version. */
type ClaimDocument = Record<string, unknown> & {
  version: number;
  created_at?: Date;
  request_key?: string;
  event_ids?: string[];
};

/**
 * Records whose every change claims the record's next version. FerretDB has no atomic
 * read-modify-write (its find-and-modify and conditional updates read and then write: 20
 * concurrent deletes of one property answered 200 up to 11 times), so a change first inserts its
 * claim `{_id: "<id>:<version>"}`, which the `_id` index makes atomic: of two writers that read
 * one version exactly one claims the next, and the other reads again. The claims are the record
 * of truth; each record's copy of its state is written afterwards and may lag, so a reader folds
 * in every claim past the version the copy shows. A writer that dies between its claim and its
 * copy, or a copy written late over a newer one, loses nothing.
 *
 * A read guesses the version it last saw the record at and reads the copy and the claim after
 * that guess in one round trip: when nothing changed since, that claim is absent and the answer
 * is as current as reading the two one after the other.
 */
export class DriverVersionedRecords<S extends object, C extends object> implements VersionedRecords<S, C> {
  private readonly copies: DriverRecords<Record<string, unknown>>;
  private readonly claims: DriverOnceRecords<ClaimDocument>;
  /** The latest state this process saw of each record, and when: where its next read starts. */
  private readonly known = new Map<number, { current: Versioned<S>; at: number }>();

  constructor(
    connection: Connection,
    private readonly spec: VersionedSpec<S, C>,
  ) {
    this.copies = new DriverRecords(connection, spec.copies, { unique: spec.unique });
    this.claims = new DriverOnceRecords<ClaimDocument>(connection, spec.claims);
  }

  async prepare(): Promise<void> {
    await this.copies.prepare();
    await this.claims.prepare();
  }

  async create(id: number, state: S): Promise<Versioned<S>> {
    const document = { ...(state as Record<string, unknown>), version: versionOf(state) };
    if (await this.copies.insert(String(id), document)) return { version: document.version, state };
    // The key or a unique field (the request that made it) was taken: that record is the answer.
    const byKey = await this.copies.get(String(id));
    if (byKey) return (await this.fold(byKey))!;
    const unique = Object.values(this.spec.unique ?? {});
    for (const field of unique) {
      const [stored] = await this.copies.scan({ [field]: (state as Record<string, unknown>)[field] }, { limit: 1 });
      if (stored) return (await this.fold(stored))!;
    }
    throw new Error(`record ${id} of ${this.spec.copies} could be neither stored nor read`);
  }

  async createdBy(field: string, value: unknown): Promise<Versioned<S> | null> {
    const [stored] = await this.copies.scan({ [field]: value }, { limit: 1 });
    return stored ? this.fold(stored) : null;
  }

  /**
   * A state this process saw lately costs one read: the claim after it. Claims are only ever
   * added, in order, and every change is one, so when that claim is absent the state is current.
   */
  async current(id: number): Promise<Versioned<S> | null> {
    const known = this.known.get(id);
    if (known && Date.now() - known.at < REMEMBER_MS) {
      const next = await this.claims.get(claimKey(id, known.current.version + 1));
      if (!next) return structuredClone(known.current);
      const current = await this.walkFrom(id, this.fromClaim(structuredClone(known.current.state), next));
      this.remember(id, current);
      return current;
    }
    const guess = known?.current.version;
    const [copy, guessed] = await Promise.all([
      this.copies.get(String(id)),
      guess === undefined ? Promise.resolve(null) : this.claims.get(claimKey(id, guess + 1)),
    ]);
    if (this.spec.copy === 'versionOnly') return this.walkFromHint(id, copy ? versionOf(copy) : 1);
    if (!copy) return null;
    return this.fold(copy, guess === versionOf(copy) ? guessed : undefined);
  }

  async currentMany(ids: number[]): Promise<Map<number, Versioned<S>>> {
    const found = new Map<number, Versioned<S>>();
    if (ids.length === 0) return found;
    const copies = await this.copies.getMany(ids.map(String));
    const versionOnly = this.spec.copy === 'versionOnly';
    // A version-only record whose copy was never written shows its first claim (see current).
    const hints = ids.flatMap((id) => {
      const copy = copies.get(String(id));
      if (copy) return [{ id, version: versionOf(copy) }];
      return versionOnly ? [{ id, version: 1 }] : [];
    });
    const claims = await this.claims.getMany(
      hints.flatMap(({ id, version }) =>
        versionOnly ? [claimKey(id, version), claimKey(id, version + 1)] : [claimKey(id, version + 1)],
      ),
    );
    await Promise.all(
      hints.map(async ({ id, version }) => {
        const next = claims.get(claimKey(id, version + 1)) ?? null;
        let current: Versioned<S> | null;
        if (versionOnly) {
          // The rare record whose hint lags behind walks on by itself.
          const at = claims.get(claimKey(id, version));
          current = next ? await this.walkFrom(id, this.fromClaim(null, next)) : at ? this.fromClaim(null, at) : null;
          if (current) this.remember(id, current);
        } else {
          current = await this.fold(copies.get(String(id))!, next);
        }
        if (current) found.set(id, current);
      }),
    );
    return found;
  }

  async claimNext(
    id: number,
    from: Versioned<S> | null,
    change: C,
    options: { at?: Date; request_key?: string; event_ids?: string[] } = {},
  ): Promise<Versioned<S> | null> {
    const version = (from?.version ?? 0) + 1;
    const claim: ClaimDocument = {
      [this.spec.idField]: id,
      version,
      ...(change as Record<string, unknown>),
      ...(this.spec.stampClaims === false ? {} : { created_at: options.at ?? new Date() }),
      event_ids: options.event_ids ?? [],
      ...(options.request_key === undefined ? {} : { request_key: options.request_key }),
    };
    if (!(await this.claims.claim(claimKey(id, version), claim))) return null;
    const next = this.fromClaim(from?.state ?? null, { _id: claimKey(id, version), ...claim });
    this.remember(id, next);
    await this.writeCopy(id, next);
    return next;
  }

  async change(id: number, version: number): Promise<ClaimedChange<C> | null> {
    const claim = await this.claims.get(claimKey(id, version));
    return claim ? this.toChange(id, claim) : null;
  }

  async changes(id: number, from: number, to: number): Promise<Array<ClaimedChange<C>>> {
    const changes: Array<ClaimedChange<C>> = [];
    for (let start = from; start <= to; start += CLAIMS_READ_AT_ONCE) {
      const end = Math.min(to, start + CLAIMS_READ_AT_ONCE - 1);
      const keys = Array.from({ length: end - start + 1 }, (_, i) => claimKey(id, start + i));
      const found = await this.claims.getMany(keys);
      for (const key of keys) {
        const claim = found.get(key);
        if (claim) changes.push(this.toChange(id, claim));
      }
    }
    return changes;
  }

  async rewriteChange(id: number, version: number, change: Partial<C>): Promise<void> {
    await this.claims.annotate(claimKey(id, version), change as Partial<ClaimDocument>);
  }

  async writeCopy(id: number, current: Versioned<S>): Promise<void> {
    const fields = this.spec.copy === 'versionOnly' ? (this.spec.hint?.(current.state) ?? {}) : current.state;
    await this.copies.update(String(id), { set: { ...fields, version: current.version } }, { upsert: true });
  }

  removeCopy(id: number): Promise<void> {
    this.known.delete(id);
    return this.copies.remove(String(id));
  }

  witness(id: number, version: number): EventWitness {
    return this.claims.witness(claimKey(id, version));
  }

  createdWitness(id: number): EventWitness {
    return this.copies.witness(String(id));
  }

  async scanCopies(filter: ScanFilter): Promise<number[]> {
    const found = await this.copies.scan(filter, { projection: { _id: 1 } });
    return found.map(({ _id }) => Number(_id));
  }

  /**
   * The copy with every claim past its version folded in; `next` is the claim after the copy's
   * version when the caller read it already (null: read and absent; undefined: not read).
   */
  private async fold(copy: Keyed<Record<string, unknown>>, next?: Keyed<ClaimDocument> | null): Promise<Versioned<S>> {
    const { _id, ...fields } = copy;
    const id = Number(_id);
    const stored: Versioned<S> = { version: versionOf(copy), state: fields as S };
    const following = next === undefined ? await this.claims.get(claimKey(id, stored.version + 1)) : next;
    const current = following ? await this.walkFrom(id, this.fromClaim(stored.state, following)) : stored;
    this.remember(id, current);
    // A copy found behind is brought up to date, so that the next reader walks less.
    if (current.version !== stored.version) await this.writeCopy(id, current);
    return current;
  }

  /** For version-only copies: the state of the claim at the hinted version, and of any after it. */
  private async walkFromHint(id: number, hint: number): Promise<Versioned<S> | null> {
    const claim = await this.claims.get(claimKey(id, hint));
    if (!claim) return null;
    const current = await this.walkFrom(id, this.fromClaim(null, claim));
    this.remember(id, current);
    return current;
  }

  private async walkFrom(id: number, from: Versioned<S>): Promise<Versioned<S>> {
    let current = from;
    for (let step = 0; step < MAX_CHAIN; step++) {
      const next = await this.claims.get(claimKey(id, current.version + 1));
      if (!next) return current;
      current = this.fromClaim(current.state, next);
    }
    return current;
  }

  private fromClaim(state: S | null, claim: Keyed<ClaimDocument>): Versioned<S> {
    const id = Number(claim[this.spec.idField]);
    return { version: claim.version, state: this.spec.fold(state, this.toChange(id, claim)) };
  }

  private toChange(id: number, claim: Keyed<ClaimDocument>): ClaimedChange<C> {
    const { _id, version, created_at, request_key, event_ids, [this.spec.idField]: _owner, ...change } = claim;
    return {
      id,
      version,
      change: change as unknown as C,
      at: created_at ?? new Date(0),
      ...(request_key === undefined ? {} : { request_key }),
      event_ids: event_ids ?? [],
    };
  }

  private remember(id: number, current: Versioned<S>): void {
    if (current.version < (this.known.get(id)?.current.version ?? 0)) return;
    if (this.known.size >= MAX_REMEMBERED) this.known.clear();
    this.known.set(id, { current: structuredClone(current), at: Date.now() });
  }
}

function versionOf(document: object): number {
  return (document as { version?: number }).version ?? 0;
}

function claimKey(id: number, version: number): string {
  return `${id}:${version}`;
}
