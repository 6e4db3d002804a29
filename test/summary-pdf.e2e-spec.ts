import { KEYS, Stack } from '../tools/stack';
import { makeMaximalApplication } from '../tools/maximal-application';
import { Answer, api, Api, expectErrorBody } from './support/http';

// pdf-parse's own entry point reads a test file when it is the main module; its parser is this one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parsePdf = require('pdf-parse/lib/pdf-parse.js') as (data: Buffer) => Promise<{ text: string; numpages: number }>;

/** A key of client one that API_KEY_SCOPES grants the sensitive_data scope. */
const READER_KEY = 'test-key-client-one-summaries';

/**
 * The summary PDF of the largest application there can be, against the whole stack: laid out on
 * the gateway's worker thread, whole; and, with one worker and no line (SUMMARY_PDF_WORKERS=1,
 * SUMMARY_PDF_QUEUE=0), each summary asked for while another is under way refused at once.
 */
describe('the summary PDF of a maximal application', () => {
  let stack: Stack;
  let client: Api;
  let summaryPath: string;

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      env: {
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000',
        // 400 uploads, all from 127.0.0.1.
        FORM_UPLOADS_PER_HOUR: '1000000',
        API_KEYS: `${KEYS.clientOne}:1,${READER_KEY}:1`,
        API_KEY_SCOPES: `${READER_KEY}:sensitive_data`,
        SUMMARY_PDF_WORKERS: '1',
        SUMMARY_PDF_QUEUE: '0',
      },
    });
    client = api(stack.url);
    const { applicationId } = await makeMaximalApplication({ ...stack, apiKey: KEYS.clientOne });
    summaryPath = `/api/v2/applications/${applicationId}/summary.pdf`;
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const summary = async (): Promise<{ answer: Response; bytes: Buffer }> => {
    const answer = await fetch(`${stack.url}${summaryPath}`, { headers: { authorization: `Bearer ${READER_KEY}` } });
    return { answer, bytes: Buffer.from(await answer.arrayBuffer()) };
  };
  /** The audit events of the sensitive-data reads made for the request `requestId`. */
  const readsOf = async (requestId: string | null) =>
    (await client.get('/api/v2/audit_events?limit=100', { key: READER_KEY })).body.audit_events.filter(
      (event: { request_id: string }) => event.request_id === requestId,
    );

  it('prints every applicant and guarantor with every page of theirs', async () => {
    const { answer, bytes } = await summary();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    const { text } = await parsePdf(bytes);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat.match(/Signed by: /g)).toHaveLength(20);
    for (const heading of [
      'Primary applicant: applicant1',
      'Co-applicant: adult2',
      'Guarantor: guarantor2',
      'Co-applicant: co19',
    ]) {
      expect(flat).toContain(`${heading} Surname`);
    }
    expect(await readsOf(answer.headers.get('x-request-id'))).toHaveLength(20);
  }, 120_000);

  it('refuses a summary asked for while another is under way: 503, Retry-After and the error body, nothing read for it', async () => {
    const answers = await Promise.all([summary(), summary(), summary()]);
    const statuses = answers.map(({ answer }) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1)).toEqual([503, 503]);
    for (const { answer, bytes } of answers.filter(({ answer }) => answer.status === 503)) {
      expect(answer.headers.get('retry-after')).toBe('5');
      const text = bytes.toString();
      expectErrorBody({ status: 503, headers: answer.headers, body: JSON.parse(text), text } as Answer, /^too many summary PDFs/);
      expect(JSON.parse(text).error.message).toBe('too many summary PDFs are being made at once: retry after 5 seconds');
      expect(await readsOf(answer.headers.get('x-request-id'))).toEqual([]);
    }
    // Its place given back, the next one is made.
    expect((await summary()).answer.status).toBe(200);
  }, 120_000);
});
