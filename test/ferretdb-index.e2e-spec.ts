import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Db, MongoClient } from 'mongodb';
import { FERRETDB_SCRIPT } from './support/global-setup';
import { api } from './support/http';
import { freePort, ServiceName, Stack } from '../tools/stack';

/**
 * Every read, update and delete of the data layer filters on `{_id: <string>}` (or, for a page,
 * `{_id: {$in: [...]}}`), the filters that FerretDB can answer from an index. Its SQLite backend
 * uses the index only when the query spells the `_id` expression as the index does, and reads
 * `$in` from it only in the project's build (scripts/ferretdb-patches); these tests ask the
 * database itself. On MongoDB (docker-compose) they check its own plan the same way.
 */

const SERVICES: ServiceName[] = ['properties', 'applications', 'webhooks'];

/** What the database says it will do for `command`: SQLite's plan on FerretDB, MongoDB's stages otherwise. */
async function plan(db: Db, command: Record<string, unknown>): Promise<string> {
  const explained = await db.command({ explain: command });
  return JSON.stringify(explained.queryPlanner);
}

/** The plan of a lookup by `_id` that uses the `_id` index, on either database. */
const USES_ID_INDEX = /SEARCH \S+ USING INDEX \S+__id_ |IDHACK|EXPRESS_IXSCAN|IXSCAN/;
const SCANS = /"id=\d+ parent=\d+ notused=\d+ detail=SCAN |COLLSCAN/;

describe('lookups by _id use the _id index', () => {
  let stack: Stack;
  let mongo: MongoClient;

  beforeAll(async () => {
    stack = await Stack.start({ instances: { webhooks: 1 } });
    mongo = await MongoClient.connect(process.env.MONGODB_URI!);
    // Something in every service's collections, made through the API as a client would.
    const client = api(stack.url);
    const property = (await client.post('/api/v2/properties', { property: { name: 'Indexed' } })).body.property;
    const created = await client.post('/api/v2/applications', {
      application: { property_id: property.id, applicant: { first_name: 'In', last_name: 'Dex', email: 'in@example.com' } },
    });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await mongo?.close();
    await stack?.stop();
  });

  it('for a find (of one key or several), an update and a delete on every collection of every service', async () => {
    const planned: string[] = [];
    for (const service of SERVICES) {
      const db = mongo.db(`${stack.namespace}${service}`);
      const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      expect(collections.length).toBeGreaterThan(0);
      for (const name of collections) {
        const filter = { _id: '1' };
        const commands = {
          find: { find: name, filter, limit: 1 },
          'find of several keys': { find: name, filter: { _id: { $in: ['1', '2', '3'] } } },
          update: { update: name, updates: [{ q: filter, u: { $set: { touched: true } } }] },
          delete: { delete: name, deletes: [{ q: filter, limit: 1 }] },
        };
        for (const [kind, command] of Object.entries(commands)) {
          // The collection and the kind stand in the text, so that a failure names them.
          const described = `${service}.${name} ${kind}: ${await plan(db, command)}`;
          planned.push(described);
          expect(described).toMatch(USES_ID_INDEX);
          expect(described).not.toMatch(SCANS);
        }
      }
    }
    // The project's own collections were all there to be asked about.
    expect(planned.some((line) => line.startsWith('applications.applications find'))).toBe(true);
    expect(planned.some((line) => line.startsWith('applications.application_index find'))).toBe(true);
    expect(planned.some((line) => line.startsWith('properties.properties find'))).toBe(true);
  });
});

describe('a read by _id', () => {
  let mongo: MongoClient;
  let db: Db;

  beforeAll(async () => {
    mongo = await MongoClient.connect(process.env.MONGODB_URI!);
    db = mongo.db(`t${randomBytes(4).toString('hex')}_id_reads`);
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  /** Stores `count` application-sized documents keyed as the repositories key them. */
  async function fill(name: string, count: number): Promise<void> {
    const padding = 'x'.repeat(1500);
    for (let start = 1; start <= count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start + 1) }, (_, i) => ({
        _id: String(start + i),
        id: start + i,
        padding,
      }));
      await db.collection<{ _id: string }>(name).insertMany(batch, { ordered: false });
    }
  }

  /** The median time of `reads` finds by `_id`, spread over the whole collection, newest last. */
  async function medianReadMs(name: string, count: number, reads: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < reads; i++) {
      // The newest documents are the ones a scan reaches last.
      const id = String(count - ((i * 7919) % Math.min(count, 100)));
      const started = performance.now();
      const found = await db.collection<{ _id: string }>(name).findOne({ _id: id });
      times.push(performance.now() - started);
      expect(found?._id).toBe(id);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  }

  it('costs about as much among 20,000 documents as among 200', async () => {
    await fill('small', 200);
    await fill('large', 20_000);
    // Alternated, so that a busy moment of the machine falls on both.
    const small: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < 3; round++) {
      small.push(await medianReadMs('small', 200, 31));
      large.push(await medianReadMs('large', 20_000, 31));
    }
    const smallMs = Math.min(...small);
    const largeMs = Math.min(...large);
    // A scan reads every document: 100 times the rows would cost some 100 times the time.
    // Read from the index, both are one lookup; the bound leaves room for a busy machine.
    expect(largeMs).toBeLessThan(Math.max(3 * smallMs, smallMs + 5));
  }, 300_000);
});

describe('scripts/ferretdb.sh start', () => {
  const run = promisify(execFile);

  /** Starts FerretDB with `synchronous` in the environment; the command line it runs, and whether it stores and reads. */
  async function started(synchronous: string | undefined): Promise<{ cmdline: string; read: unknown }> {
    const dir = await mkdtemp(join(tmpdir(), 'ferretdb-synchronous-'));
    const env = { ...process.env, FERRETDB_SYNCHRONOUS: synchronous };
    if (synchronous === undefined) delete env.FERRETDB_SYNCHRONOUS;
    try {
      const { stdout } = await run(FERRETDB_SCRIPT, ['start', dir, String(await freePort())], { env });
      const pid = (await readFile(join(dir, 'ferretdb.pid'), 'utf8')).trim();
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
      const mongo = await MongoClient.connect(stdout.trim().split('\n').pop()!);
      try {
        const collection = mongo.db('synchronous').collection<{ _id: string; n: number }>('probe');
        await collection.insertOne({ _id: 'one', n: 1 });
        return { cmdline, read: await collection.findOne({ _id: 'one' }) };
      } finally {
        await mongo.close();
      }
    } finally {
      await run(FERRETDB_SCRIPT, ['stop', dir]);
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('runs SQLite with synchronous NORMAL unless FERRETDB_SYNCHRONOUS=full, and refuses any other value', async () => {
    const byDefault = await started(undefined);
    expect(byDefault.cmdline).toContain('--sqlite-url=file:');
    expect(byDefault.cmdline).toContain('?_pragma=synchronous(normal)&');
    // What is deleted leaves the files: zeros over freed space, the log cut back when it starts over.
    expect(byDefault.cmdline).toContain('&_pragma=secure_delete(1)&_pragma=journal_size_limit(0) ');
    expect(byDefault.read).toEqual({ _id: 'one', n: 1 });
    const full = await started('full');
    expect(full.cmdline).toContain('?_pragma=synchronous(full)&');
    expect(full.read).toEqual({ _id: 'one', n: 1 });
    await expect(started('off')).rejects.toMatchObject({
      stderr: expect.stringContaining('FERRETDB_SYNCHRONOUS must be normal or full'),
    });
  }, 120_000);
});
