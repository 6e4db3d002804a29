import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { dirname, join } from 'node:path';
import { Stack } from '../tools/stack';
import { MARKER, README, readWalkthrough, runScript } from './support/readme-walkthrough';

const ROOT = join(__dirname, '..');
const API_PAGE = join(ROOT, 'docs', 'api.md');
/** A Markdown document named anywhere in the text, linked or not: `CONTRACT.md`, `docs/api.md`. */
const MARKDOWN_NAME = /[\w./-]+\.md\b/g;
/** A Markdown link to a file of the repository: `[text](docs/api.md#part)`. */
const RELATIVE_LINK = /\]\((?!https?:|#)([^)#\s]+)(?:#[^)]*)?\)/g;
/**
 * The README's walk through the API, run as a reader would: its commands in order, in one shell,
 * against a fresh stack that has the README's development keys, with only `$API` pointing
 * elsewhere. Every call must be answered with the status its comment states.
 */
describe('the README’s examples', () => {
  const walkthrough = readWalkthrough();
  let stack: Stack;

  beforeAll(async () => {
    const { KEY, KEY2 } = walkthrough.variables;
    stack = await Stack.start({ env: { API_KEYS: `${KEY}:1,${KEY2}:2` } });
  });

  afterAll(() => stack?.stop());

  it('tell the reader to set the base URL and the two development keys, and state real statuses', () => {
    expect(walkthrough.variables).toEqual({ API: 'http://localhost:3000', KEY: 'dev-local-key', KEY2: 'dev-local-key-2' });
    expect(walkthrough.stated.length).toBeGreaterThanOrEqual(10);
    for (const { status, reason } of walkthrough.stated) expect([status, reason]).toEqual([status, STATUS_CODES[status]]);
  });

  it('link to and name only documents the repository has', () => {
    for (const page of [README, API_PAGE]) {
      const text = readFileSync(page, 'utf8');
      for (const [, target] of text.matchAll(RELATIVE_LINK)) {
        expect([page, target, existsSync(join(dirname(page), target))]).toEqual([page, target, true]);
      }
      for (const [name] of text.matchAll(MARKDOWN_NAME)) {
        const found = existsSync(join(dirname(page), name)) || existsSync(join(ROOT, name));
        expect([page, name, found]).toEqual([page, name, true]);
      }
    }
  });

  it('describe every path the gateway documents in its OpenAPI document, in docs/api.md', async () => {
    const page = readFileSync(API_PAGE, 'utf8');
    const document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths).map((path) => path.replace(/\{(\w+)\}/g, ':$1'));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect([path, page.includes(`${path}\``) || page.includes(`${path} `)]).toEqual([path, true]);
  });

  it('name the API’s paths with parameters as the OpenAPI document does', async () => {
    const document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const paths = new Set(Object.keys(document.paths).map((path) => path.replace(/\{(\w+)\}/g, ':$1')));
    const named = [...readFileSync(README, 'utf8').matchAll(/\/api\/v2\/[\w/:]*:\w+[\w/:]*/g)].map(([path]) => path);
    expect(named.length).toBeGreaterThan(0);
    for (const path of named) expect([path, paths.has(path)]).toEqual([path, true]);
  });

  it('run in order on a fresh stack, each answered with the status the README states', async () => {
    const { exitCode, calls, stderr } = await runScript(walkthrough.script, { ...walkthrough.variables, API: stack.url });

    expect([exitCode, stderr.split('\n').filter((line) => !line.startsWith(MARKER))]).toEqual([0, ['']]);
    expect(calls.map((call) => call.status)).toEqual(walkthrough.stated.map(({ status }) => status));
    for (const call of calls) {
      expect(call.exitCode).toBe(0);
      // The reader checks each comment against the status line curl prints above the answer.
      expect(call.head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/[\\d.]+ ${call.status}\\b`));
      // A 204 (a deleted form preset) has no body at all; every other answer is JSON.
      if (call.status === 204) {
        expect(call.body).toBe('');
        continue;
      }
      const body = JSON.parse(call.body);
      if (call.status >= 400) {
        expect(Object.keys(body)).toEqual(['error']);
        expect(Object.keys(body.error).sort()).toEqual(['details', 'message']);
        expect([typeof body.error.message, body.error.details === null || Array.isArray(body.error.details)]).toEqual([
          'string',
          true,
        ]);
      }
    }
  });
});
