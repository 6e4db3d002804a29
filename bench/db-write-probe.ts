/**
 * `node dist/bench/bench/db-write-probe.js [rounds] [stored]`: what one write costs the database
 * at MONGODB_URI, whether writes to one database overlap, and what a read and an update by `_id`
 * cost among `stored` documents (default 1,000). Each round times one insert, three inserts at
 * once into three collections of one database (as a create records its event and lists its
 * application side by side), and a read and an update by `_id` of the newest of the stored
 * documents (shaped as webhook deliveries), one after the other; the medians are printed
 * as JSON. It works in a database of its own, dropped at the end.
 *
 * On FerretDB over SQLite, three inserts at once take about as long as three one after the other:
 * each commits on its own, one at a time. A create is then at least as slow as its writes in a
 * row, however many of them are sent side by side. And FerretDB reads a collection up to the
 * document even by `_id`: the newest of many costs a read or an update in proportion to them.
 */
import { MongoClient } from 'mongodb';
import { hundredths, median } from './stats';

const DATABASE = `db_write_probe_${process.pid}`;
const USAGE = 'usage: db-write-probe.js [rounds] [stored], both positive integers';
/** Shaped as a webhook delivery: a few fields and its event, about 600 bytes. */
const STORED_FIELDS = {
  subscription_id: 1,
  client_id: 1,
  body: { id: 'evt_probe', event: 'property.created', data: { note: 'x'.repeat(600) } },
  status: 'pending',
};

interface Stored {
  _id: string;
  touched?: number;
}

async function main(): Promise<void> {
  const rounds = positiveInteger(process.argv[2] ?? '60');
  const stored = positiveInteger(process.argv[3] ?? '1000');
  const client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://localhost:27017');
  try {
    const db = client.db(DATABASE);
    const collections = ['first', 'second', 'third'].map((name) => db.collection<Stored>(name));
    // The first write to a collection creates it: not what is measured.
    await Promise.all(collections.map((collection) => collection.insertOne({ _id: 'created' })));
    const many = db.collection<Stored>('many');
    await many.insertMany(
      Array.from({ length: stored }, (_, i) => ({ _id: `stored:${i}`, ...STORED_FIELDS, created_at: new Date() })),
    );
    const newest = `stored:${stored - 1}`;
    const one: number[] = [];
    const three: number[] = [];
    const read: number[] = [];
    const update: number[] = [];
    for (let round = 0; round < rounds; round++) {
      one.push(await timed(() => collections[0].insertOne({ _id: `one:${round}` })));
      three.push(await timed(() => Promise.all(collections.map((c) => c.insertOne({ _id: `three:${round}` })))));
      read.push(await timed(() => many.findOne({ _id: newest })));
      update.push(await timed(() => many.updateOne({ _id: newest }, { $set: { touched: round } })));
    }
    const oneInsertMs = hundredths(median(one));
    const threeInsertsAtOnceMs = hundredths(median(three));
    const result = {
      rounds,
      stored,
      oneInsertMs,
      threeInsertsAtOnceMs,
      threeToOne: hundredths(threeInsertsAtOnceMs / oneInsertMs),
      readNewestMs: hundredths(median(read)),
      updateNewestMs: hundredths(median(update)),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await db.dropDatabase();
  } finally {
    await client.close();
  }
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(USAGE);
  return value;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
