import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHttpProblem } from '../http/http-error.filter';
import { ApplicationSummary, SUMMARY_PDF_WORKER_NICE, summaryPdf } from './summary-pdf';
import { SummaryPdfRenderer, WorkerScript } from './summary-pdf-renderer';
import { maximalSummary, summaryApplicant, summaryOf } from './summary-pdf.testing';

/** The worker from its source, as the specs run: `nest build` makes the script the gateway runs. */
const WORKER_FROM_SOURCE: WorkerScript = {
  filename: join(__dirname, 'summary-pdf.worker.ts'),
  execArgv: ['-r', 'ts-node/register/transpile-only'],
};

// pdf-parse's own entry point reads a test file when it is the main module; its parser is this one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePdf = require('pdf-parse/lib/pdf-parse.js') as (data: Buffer) => Promise<{ text: string }>;

const small = () => summaryOf([summaryApplicant(1, 'primary', 'Grace', 'Hopper')]);
/** A read of the summary that answers `summary` at once. */
const reading = (summary: ApplicationSummary) => () => Promise.resolve(summary);

/**
 * How many times the event loop turned (setImmediate callbacks ran) between the start of `work`
 * and its end: none while something holds the loop, as a layout on the loop's own thread does.
 */
async function turnsWhile(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let working = true;
  const turn = () => {
    if (!working) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  await work().finally(() => (working = false));
  return turns;
}

async function bytesOf(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('SummaryPdfRenderer', () => {
  const renderers: SummaryPdfRenderer[] = [];
  const renderer = (workers: number, waiting: number, script = WORKER_FROM_SOURCE) => {
    const made = new SummaryPdfRenderer({ workers, waiting }, script);
    renderers.push(made);
    return made;
  };
  afterAll(() => Promise.all(renderers.map((made) => made.onModuleDestroy())));

  it('sees no turn of the event loop while a maximal summary is laid out on the loop’s own thread', async () => {
    // What the gateway did before the worker threads: the measure the next test reads is sound.
    expect(await turnsWhile(() => bytesOf(summaryPdf(maximalSummary())))).toBe(0);
  }, 60_000);

  it('lays out a maximal summary on a worker thread: the event loop that serves other requests keeps turning', async () => {
    const rendering = renderer(1, 0);
    // The worker starts on the first summary: the turns below are those of the layout alone.
    await rendering.render(reading(small()));
    let pdf: Buffer | undefined;
    const turns = await turnsWhile(async () => (pdf = await rendering.render(reading(maximalSummary()))));
    expect(turns).toBeGreaterThan(0);
    expect(pdf!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf!.subarray(-6).toString()).toBe('%%EOF\n');
  }, 60_000);

  it('lays out at the lowest priority, on its own thread only: the API’s thread keeps the process’s', async () => {
    // Each thread of the process is a task of its own on Linux, its nice value the 19th field of its stat.
    const niceOf = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const before = readdirSync('/proc/self/task');
    await renderer(1, 0).render(reading(small()));
    const started = readdirSync('/proc/self/task').filter((task) => !before.includes(task));

    expect(started.map(niceOf)).toContain(SUMMARY_PDF_WORKER_NICE);
    expect(niceOf(String(process.pid))).toBe(0);
  }, 60_000);

  it('gives the whole PDF the layout makes', async () => {
    const { text } = await parsePdf(await renderer(1, 0).render(reading(small())));
    expect(text).toContain('Primary applicant: Grace Hopper');
    expect(text).toContain('Signed by: Grace Hopper');
  }, 60_000);

  it('refuses a summary beyond its workers and their line before reading it, with the documented 503 and Retry-After', async () => {
    const rendering = renderer(1, 1);
    const first = rendering.render(reading(small()));
    // Still reading: it takes its place all the same.
    let readSecond: (summary: ApplicationSummary) => void = () => undefined;
    const second = rendering.render(() => new Promise((resolve) => (readSecond = resolve)));
    const read = jest.fn(reading(small()));
    const refused = await rendering.render(read).catch((error: unknown) => error);
    expect(read).not.toHaveBeenCalled();
    expect(toHttpProblem(refused)).toEqual({
      status: 503,
      body: { error: { message: 'too many summary PDFs are being made at once: retry after 5 seconds', details: null } },
      retryAfter: 5,
    });
    readSecond(small());
    for (const pdf of await Promise.all([first, second])) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Both done: there is room again.
    expect((await rendering.render(reading(small()))).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('gives back the place of a summary whose read fails', async () => {
    const rendering = renderer(1, 0);
    const unknown = new Error('application 7 cannot be found');
    await expect(rendering.render(() => Promise.reject(unknown))).rejects.toBe(unknown);
    expect((await rendering.render(reading(small()))).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('stops a worker that has had nothing to do for a while, and starts another for the next summary', async () => {
    const rendering = new SummaryPdfRenderer({ workers: 1, waiting: 0, idleMs: 50 }, WORKER_FROM_SOURCE);
    renderers.push(rendering);
    await rendering.render(reading(small()));
    expect(rendering.workers).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rendering.workers).toBe(0);
    expect((await rendering.render(reading(small()))).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('fails a summary whose layout fails, and lays out the next one', async () => {
    const rendering = renderer(1, 0);
    const broken = { ...small(), applicants: [{}] } as unknown as ApplicationSummary;
    await expect(rendering.render(reading(broken))).rejects.toThrow(/^laying out a summary PDF failed: TypeError/);
    expect((await rendering.render(reading(small()))).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('fails the summary of a worker that dies, and starts another for the next one', async () => {
    const dies = `import { parentPort } from 'node:worker_threads';
      parentPort.on('message', (summary) => summary === 'die' ? process.exit(3) : parentPort.postMessage({ pdf: new Uint8Array([37]) }));`;
    const rendering = renderer(1, 1, { filename: new URL(`data:text/javascript,${encodeURIComponent(dies)}`) });
    const dying = rendering.render(reading('die' as unknown as ApplicationSummary));
    const next = rendering.render(reading(small()));
    await expect(dying).rejects.toThrow('a summary PDF worker exited with code 3');
    expect((await next).toString()).toBe('%');
  }, 60_000);
});
