/**
 * `npm run build && node dist/bench/bench/documents.js [--megabytes 5] [--samples 10]`: how
 * fast a document goes in through the form and out through the API. One stack with the form, on
 * the database at MONGODB_URI; one applicant whose form is started.
 *
 * 1. Uploads a `--megabytes` PDF `--samples` times, one after another, as the form's page posts it
 *    (multipart): each is checked, encrypted and stored in GridFS before the 303.
 * 2. Downloads one of them `--samples` times through the API (decrypted as it streams out).
 *
 * Prints a JSON object: the median time of each and the throughput it makes in MB/s. It
 * measures; it judges nothing. Needs MONGODB_URI and AMQP_URL, as the tests do.
 */
import { performance } from 'node:perf_hooks';
import { KEYS, Stack } from '../tools/stack';
import { readIntegerOptions } from './options';
import { hundredths, median } from './stats';

type Options = { megabytes: number; samples: number };

const READER_KEY = 'bench-key-client-one-documents';

/** The parts of the API's answers read here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const json = (answer: Response): Promise<Json> => answer.json();

function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token in the page');
  return match[1];
}

async function main(): Promise<void> {
  const options = readIntegerOptions<Options>(process.argv.slice(2), { megabytes: 5, samples: 10 });
  const stack = await Stack.start({
    form: true,
    env: {
      FORM_RATE_LIMIT_PER_MINUTE: '1000000',
      FORM_UPLOADS_PER_HOUR: '1000000',
      // Preset 3 asks for documents.
      CLIENT_DEFAULTS: '1:3:1',
      API_KEYS: `${KEYS.clientOne}:1,${READER_KEY}:1`,
      API_KEY_SCOPES: `${READER_KEY}:sensitive_data`,
    },
  });
  const log = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const headers = { authorization: `Bearer ${KEYS.clientOne}`, 'content-type': 'application/json' };
    const property = await fetch(`${stack.url}/api/v2/properties`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ property: { name: 'Bench House', kind: 'single_family' } }),
    }).then(json);
    const created = await fetch(`${stack.url}/api/v2/applications`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        application: {
          property_id: property.property.id,
          applicant: { first_name: 'Bench', last_name: 'Mark', email: 'bench@example.com' },
        },
      }),
    }).then(json);
    const applicantPath = new URL(created.application.applicants[0].api_url).pathname;
    const applicant = await fetch(`${stack.url}${applicantPath}`, { headers }).then(json);
    const formPath = new URL(applicant.applicant.form_url).pathname;
    const contact = await fetch(`${stack.formUrl}${formPath}`).then((answer) => answer.text());
    await fetch(`${stack.formUrl}${formPath}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf_token: csrfOf(contact),
        first_name: 'Bench',
        last_name: 'Mark',
        email: 'bench@example.com',
      }),
    });

    const size = options.megabytes * 1024 * 1024;
    const file = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 0x20)]);
    const uploads: number[] = [];
    log(`uploading ${options.samples} files of ${options.megabytes} MB`);
    for (let i = 0; i < options.samples; i++) {
      const page = await fetch(`${stack.formUrl}${formPath}/documents`).then((answer) => answer.text());
      const form = new FormData();
      form.append('csrf_token', csrfOf(page));
      form.append('kind', 'other');
      form.append('file', new Blob([file], { type: 'application/pdf' }), `bench-${i}.pdf`);
      const started = performance.now();
      const answer = await fetch(`${stack.formUrl}${formPath}/documents`, { method: 'POST', body: form, redirect: 'manual' });
      await answer.arrayBuffer();
      uploads.push(performance.now() - started);
      if (answer.status !== 303) throw new Error(`upload ${i} answered ${answer.status}`);
    }

    const reader = { authorization: `Bearer ${READER_KEY}` };
    const { documents } = await fetch(`${stack.url}${applicantPath}/documents`, { headers: reader }).then(json);
    const downloads: number[] = [];
    log(`downloading ${options.samples} times`);
    for (let i = 0; i < options.samples; i++) {
      const started = performance.now();
      const answer = await fetch(`${stack.url}${applicantPath}/documents/${documents[0].id}/content`, { headers: reader });
      const body = await answer.arrayBuffer();
      downloads.push(performance.now() - started);
      if (answer.status !== 200 || body.byteLength !== size) throw new Error(`download ${i} answered ${answer.status}`);
    }

    const megabytesPerSecond = (ms: number) => hundredths(options.megabytes / (ms / 1000));
    const result = {
      megabytes: options.megabytes,
      samples: options.samples,
      uploadMsP50: hundredths(median(uploads)),
      uploadMegabytesPerSecond: megabytesPerSecond(median(uploads)),
      downloadMsP50: hundredths(median(downloads)),
      downloadMegabytesPerSecond: megabytesPerSecond(median(downloads)),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
