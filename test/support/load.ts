import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Stack } from '../../tools/stack';
import { Api } from './http';

/** One HTTP attempt made by the load. */
export interface Attempt {
  kind: 'property' | 'application';
  status: number;
  startedAt: number;
  ms: number;
  /** The Retry-After header it was answered with, if any. */
  retryAfter: string | null;
  /** Why it got no answer (status 0): the connection refused, reset, closed. */
  failure?: string;
}

/** One logical create: the client retries 503s with the same Idempotency-Key. */
export interface Create {
  kind: 'property' | 'application';
  name: string;
  key: string;
  /** The final answer: 201 once created, or the last failure after the retries ran out. */
  status: number;
  id?: number;
  /** The answer to each attempt, in order (0: none), to tell how a create went wrong. */
  statuses: number[];
}

export interface LoadOptions {
  workers: number;
  /** Applications are made to this property; without it, only properties are created. */
  propertyId?: number;
  /** Attempts per logical create before the client gives up. */
  attempts?: number;
}

/**
 * The answers a client tries again, with the same Idempotency-Key: the documented retryable ones
 * (503, and 409 for a key another try is still working on) and a broken connection (0).
 */
const RETRIED = new Set([0, 409, 503]);

/** What a client does between retries of a 503 (it honours Retry-After in spirit, faster). */
const RETRY_BACKOFF_MS = 100;

/** Every load started and not yet stopped. */
const running = new Set<Load>();

/**
 * Stops every load still running. A suite calls it after each test: a test that failed before
 * stopping its load would leave its workers retrying for ever, and Jest would never exit.
 */
export async function stopEveryLoad(): Promise<void> {
  await Promise.all([...running].map((load) => load.stop()));
}

/**
 * Mixed create traffic from a number of concurrent clients, each behaving as a careful
 * integrator: every create has its own Idempotency-Key and unique name, and a 503 or 409 (or a
 * broken connection) is retried with the same key. Records every attempt and every final outcome.
 */
export class Load extends EventEmitter {
  readonly attempts: Attempt[] = [];
  readonly creates: Create[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  private readonly runId = randomUUID().slice(0, 8);
  private sequence = 0;

  constructor(
    private readonly client: Api,
    private readonly options: LoadOptions,
  ) {
    super();
  }

  start(): this {
    this.running = true;
    running.add(this);
    this.workers = Array.from({ length: this.options.workers }, () => this.work());
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    running.delete(this);
    await Promise.all(this.workers);
  }

  /** Resolves with the next attempt (after now) that `predicate` accepts. */
  next(predicate: (attempt: Attempt) => boolean): Promise<Attempt> {
    return new Promise((resolve) => {
      const listener = (attempt: Attempt) => {
        if (!predicate(attempt)) return;
        this.off('attempt', listener);
        resolve(attempt);
      };
      this.on('attempt', listener);
    });
  }

  /** Resolves once `count` more creates have succeeded. */
  async successes(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await this.next((a) => a.status === 201);
  }

  private async work(): Promise<void> {
    while (this.running) {
      const kind = this.options.propertyId && this.sequence % 2 === 1 ? 'application' : 'property';
      await this.create(kind);
    }
  }

  private async create(kind: Create['kind']): Promise<void> {
    const name = `load-${this.runId}-${this.sequence++}`;
    const create: Create = { kind, name, key: randomUUID(), status: 0, statuses: [] };
    this.creates.push(create);
    const attempts = this.options.attempts ?? 100;
    for (let i = 0; i < attempts; i++) {
      const status = await this.attempt(create);
      create.status = status;
      create.statuses.push(status);
      if (!RETRIED.has(status)) return;
      if (!this.running && i > 0) return;
      await delay(RETRY_BACKOFF_MS);
    }
  }

  private async attempt(create: Create): Promise<number> {
    const startedAt = Date.now();
    let status: number;
    let retryAfter: string | null = null;
    let failure: string | undefined;
    try {
      const answer =
        create.kind === 'property'
          ? await this.client.post(
              '/api/v2/properties',
              { property: { name: create.name } },
              { headers: { 'idempotency-key': create.key } },
            )
          : await this.client.post(
              '/api/v2/applications',
              {
                application: {
                  property_id: this.options.propertyId,
                  applicant: { first_name: create.name, last_name: 'Load', email: 'load@example.com' },
                },
              },
              { headers: { 'idempotency-key': create.key } },
            );
      status = answer.status;
      retryAfter = answer.headers.get('retry-after');
      if (status === 201) create.id = (answer.body.property ?? answer.body.application).id;
    } catch (error) {
      status = 0; // the connection broke: the client cannot know whether it was done
      failure = String((error as Error).cause ?? error);
    }
    const attempt: Attempt = { kind: create.kind, status, startedAt, ms: Date.now() - startedAt, retryAfter, failure };
    this.attempts.push(attempt);
    this.emit('attempt', attempt);
    return status;
  }
}

/**
 * Every attempt answered with more than a documented retryable answer (503 with Retry-After, 409
 * for a key another try is working on), or not answered at all (a reset, a refused connection).
 */
export function beyondRetryable(attempts: Attempt[]): Attempt[] {
  return attempts.filter((a) => !(a.status === 201 || a.status === 409 || (a.status === 503 && Number(a.retryAfter) > 0)));
}

export interface Tally {
  scenario: string;
  creates: number;
  succeeded: number;
  /** Creates answered 201 whose resource cannot be read back. */
  lost: number;
  /** Those creates, with what each was stored under (to tell a lost one from one stored under another id). */
  lostCreates: Array<Create & { stored: number[] }>;
  /** Logical creates (one name, one key) stored more than once. */
  duplicates: number;
  /** Attempts answered with a 5xx other than 503. */
  otherServerErrors: number;
  /** Attempts answered 503. */
  unavailable: number;
  /** The longest any attempt took, in ms. */
  slowest: number;
  /** From the fault's end to the first success after it, in ms (null: no fault or none yet). */
  recoveryMs: number | null;
}

/** Counts the attempts; `stored` maps each create's name to how many resources carry it. */
export function tally(
  scenario: string,
  load: Load,
  stored: Map<string, { count: number; ids: number[] }>,
  faultEndedAt: number | null,
): Tally {
  const succeeded = load.creates.filter((c) => c.status === 201);
  const lostCreates = succeeded
    .filter((c) => !stored.get(c.name)?.ids.includes(c.id!))
    .map((c) => ({ ...c, stored: stored.get(c.name)?.ids ?? [] }));
  const recovered =
    faultEndedAt === null ? undefined : load.attempts.find((a) => a.status === 201 && a.startedAt >= faultEndedAt);
  return {
    scenario,
    creates: load.creates.length,
    succeeded: succeeded.length,
    lost: lostCreates.length,
    lostCreates,
    duplicates: [...stored.values()].filter((s) => s.count > 1).length,
    otherServerErrors: load.attempts.filter((a) => a.status >= 500 && a.status !== 503).length,
    unavailable: load.attempts.filter((a) => a.status === 503).length,
    slowest: Math.max(0, ...load.attempts.map((a) => a.ms)),
    recoveryMs: recovered && faultEndedAt !== null ? recovered.startedAt + recovered.ms - faultEndedAt : null,
  };
}

/** How many times each create of `load` was stored, by its name, and under which ids. */
export async function storedByName(stack: Stack, load: Load): Promise<Map<string, { count: number; ids: number[] }>> {
  const names = load.creates.map((c) => c.name);
  const stored = new Map<string, { count: number; ids: number[] }>();
  const add = (name: string, id: number) => {
    const entry = stored.get(name) ?? { count: 0, ids: [] };
    entry.count += 1;
    entry.ids.push(id);
    stored.set(name, entry);
  };
  const properties = await stack.database('properties');
  const applications = await stack.database('applications');
  try {
    for (const doc of await properties
      .collection('properties')
      .find({ name: { $in: names } })
      .toArray())
      add(doc.name, doc.id);
    const filter = { 'applicants.first_name': { $in: names } };
    for (const doc of await applications.collection('applications').find(filter).toArray())
      add(doc.applicants[0].first_name, doc.id);
  } finally {
    await properties.close();
    await applications.close();
  }
  return stored;
}
