/**
 * `node dist/bench/bench/db-write-probe.js [rounds]`: what one write costs the database at
 * MONGODB_URI, and whether writes to one database overlap. Each round times one insert, three
 * inserts at once into three collections of one database (as a create records its event and
 * lists its application side by side), and one read by `_id`, one after the other; the medians
 * are printed as JSON. It works in a database of its own, dropped at the end.
 *
 * On FerretDB over SQLite, three inserts at once take about as long as three one after the other:
 * each commits on its own, one at a time. A create is then at least as slow as its writes in a
 * row, however many of them are sent side by side.
 */
import { MongoClient } from 'mongodb';

const DATABASE = `db_write_probe_${process.pid}`;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 60);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('usage: db-write-probe.js [rounds, a positive integer]');
  const client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://localhost:27017');
  try {
    const db = client.db(DATABASE);
    const collections = ['first', 'second', 'third'].map((name) => db.collection<{ _id: string }>(name));
    // The first write to a collection creates it: not what is measured.
    await Promise.all(collections.map((collection) => collection.insertOne({ _id: 'created' })));
    const one: number[] = [];
    const three: number[] = [];
    const read: number[] = [];
    for (let round = 0; round < rounds; round++) {
      one.push(await timed(() => collections[0].insertOne({ _id: `one:${round}` })));
      three.push(await timed(() => Promise.all(collections.map((c) => c.insertOne({ _id: `three:${round}` })))));
      read.push(await timed(() => collections[1].findOne({ _id: `three:${round}` })));
    }
    const result = { rounds, oneInsertMs: median(one), threeInsertsAtOnceMs: median(three), oneReadMs: median(read) };
    process.stdout.write(
      `${JSON.stringify({ ...result, threeToOne: round2(result.threeInsertsAtOnceMs / result.oneInsertMs) })}\n`,
    );
    await db.dropDatabase();
  } finally {
    await client.close();
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round2(sorted[Math.floor(sorted.length / 2)]);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
