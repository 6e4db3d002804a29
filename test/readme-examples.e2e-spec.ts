import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { dirname, join } from 'node:path';
import { Stack } from '../tools/stack';
import { examplesOf, MARKER, readWalkthrough, ROOT, runScript, SECTION, SH_BLOCK } from './support/readme-walkthrough';

const API_PAGE = join(ROOT, 'docs', 'integrators', 'api.md');
/**
 * The pages whose examples run, in the order a reader runs them, in one shell: the README's first
 * application, then the pages that go on from it.
 */
const EXAMPLE_PAGES = ['README.md', 'docs/integrators/walkthrough.md', 'docs/integrators/webhooks.md'];
/** A Markdown document named anywhere in the text, linked or not: `CONTRACT.md`, `docs/api.md`. */
const MARKDOWN_NAME = /[\w./-]+\.md\b/g;
/** A Markdown link to a file of the repository: `[text](docs/api.md#part)`. */
const RELATIVE_LINK = /\]\((?!https?:|#)([^)#\s]+)(?:#[^)]*)?\)/g;
/** The README and every page of the manual, by path from the root. */
function markdownPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/**
 * The README's first application and the walks of the manual that go on from it, run as a reader
 * would: their commands in order, in one shell, against a fresh stack that has the README's
 * development keys and, as `npm start` does, takes webhooks to a receiver on this machine, with
 * only `$API` pointing elsewhere. Every call must be answered with the status its comment states.
 */
describe('the examples of the README and the manual', () => {
  const walkthrough = readWalkthrough(EXAMPLE_PAGES);
  let stack: Stack;

  beforeAll(async () => {
    const { KEY, KEY2 } = walkthrough.variables;
    stack = await Stack.start({
      env: { API_KEYS: `${KEY}:1,${KEY2}:2`, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      instances: { webhooks: 1 },
    });
  });

  it('are all run: every page with examples is among those run, and every request to $API is in one', () => {
    const pages = markdownPages();
    expect(pages.filter((page) => examplesOf(page).length > 0).sort()).toEqual([...EXAMPLE_PAGES].sort());
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(SECTION, '');
      const outside = [...text.matchAll(SH_BLOCK)].filter((block) => block[1].includes('$API'));
      expect([page, outside.length]).toEqual([page, 0]);
    }
  });

  afterAll(() => stack?.stop());

  it('tell the reader to set the base URL and the two development keys, and state real statuses', () => {
    expect(walkthrough.variables).toEqual({ API: 'http://localhost:3000', KEY: 'dev-local-key', KEY2: 'dev-local-key-2' });
    expect(walkthrough.stated.length).toBeGreaterThanOrEqual(10);
    for (const { status, reason } of walkthrough.stated) expect([status, reason]).toEqual([status, STATUS_CODES[status]]);
  });

  it('link to and name only documents the repository has', () => {
    for (const page of markdownPages().map((path) => join(ROOT, path))) {
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

  it('describe every path the gateway documents in its OpenAPI document, in the API guide', async () => {
    const page = readFileSync(API_PAGE, 'utf8');
    const document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths).map((path) => path.replace(/\{(\w+)\}/g, ':$1'));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect([path, page.includes(`${path}\``) || page.includes(`${path} `)]).toEqual([path, true]);
  });

  it('name the API’s paths with parameters as the OpenAPI document does', async () => {
    const document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const paths = new Set(Object.keys(document.paths).map((path) => path.replace(/\{(\w+)\}/g, ':$1')));
    const integrators = markdownPages().filter((page) => page === 'README.md' || page.startsWith('docs/integrators/'));
    const named = integrators.flatMap((page) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/\/api\/v2\/[\w/:.]*:\w+[\w/:.]*/g)].map(([path]) => ({
        page,
        path: path.replace(/\.+$/, ''),
      })),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const { page, path } of named) expect([page, path, paths.has(path)]).toEqual([page, path, true]);
  });

  it('run in order on a fresh stack, each answered with the status its page states', async () => {
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
