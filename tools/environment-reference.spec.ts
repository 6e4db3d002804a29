import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FormEnvironment } from '../apps/form/src/config/form.environment';
import { GatewayEnvironment } from '../apps/gateway/src/config/gateway.environment';
import { APPS } from '../scripts/apps';
import { markdownPages } from './markdown-pages';
import { ENVIRONMENTS, meanings, readVariables, REFERENCE_PAGE, renderPage, renderTable, tableOf } from './environment-reference';

const ROOT = join(__dirname, '..');
const page = readFileSync(REFERENCE_PAGE, 'utf8');

/** The variables a table's rows start with: `| \`NAME\` |` or `| \`NAME\`, \`OTHER\` |`. */
const tableRowVariables = (text: string): string[] =>
  [...text.matchAll(/^\| ((?:`[A-Z][A-Z0-9_]*`(?:, | \(or [^)]*\))?)+)/gm)].flatMap(([, cell]) =>
    [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map(([, name]) => name),
  );

describe('the environment reference (docs/operators/configuration.md)', () => {
  const variables = readVariables();

  it('reads the environment class of every app there is', () => {
    expect(Object.keys(ENVIRONMENTS)).toEqual(APPS);
    expect(variables.length).toBeGreaterThan(50);
  });

  it('is the table the environment classes make: every variable, which apps read it, its default (npm run docs:environment)', () => {
    expect(tableOf(page)).toBe(tableOf(renderPage(page)));
  });

  it('says what every variable means', () => {
    const known = meanings(page);
    expect(variables.filter(({ name }) => !known.get(name)).map(({ name }) => name)).toEqual([]);
  });

  it('gives each variable one row, and no other page a row of its own for it', () => {
    const names = new Set(variables.map(({ name }) => name));
    const rows = tableRowVariables(tableOf(page));
    expect(rows.filter((name, i) => rows.indexOf(name) !== i)).toEqual([]);
    for (const other of markdownPages(ROOT, 'README.md').filter((path) => path !== REFERENCE_PAGE)) {
      const repeated = tableRowVariables(readFileSync(other, 'utf8')).filter(
        (name) => names.has(name) || name.startsWith('OTEL_'),
      );
      expect([relative(ROOT, other), repeated]).toEqual([relative(ROOT, other), []]);
    }
  });
});

describe('the environment reference, made afresh', () => {
  const variables = readVariables();
  const row = (name: string, table: string) => table.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));

  it('names each default, the apps that differ, and the defaults worked out from other settings', () => {
    const table = renderTable(variables, new Map());
    const gateway = new GatewayEnvironment();
    expect(row('RATE_LIMIT_BURST', table)).toBe(`| \`RATE_LIMIT_BURST\` | gateway | \`${gateway.RATE_LIMIT_BURST}\` |  |`);
    expect(row('AMQP_URL', table)).toContain(`| every app | \`${gateway.AMQP_URL}\` |`);
    expect(row('HTTP_PORT', table)).toContain(`\`${gateway.HTTP_PORT}\` (gateway)`);
    expect(row('FIELD_ENCRYPTION_KEYS', table)).toContain('| applications, webhooks, gateway | none: required |');
    expect(row('REDIS_URL', table)).toContain('| form, gateway | unset |');
    expect(row('PUBLIC_BASE_URL', table)).toContain('worked out from other settings at the gateway');
    expect(row('NODE_ENV', table)).toBe(`| \`NODE_ENV\` | form | \`${new FormEnvironment().NODE_ENV}\` |  |`);
  });

  it('keeps each meaning by its variable, and leaves a new variable’s empty', () => {
    const table = renderTable(variables, new Map([['PORT', 'the port']]));
    expect(row('PORT', table)).toBe(`| \`PORT\` | gateway | \`${new GatewayEnvironment().PORT}\` | the port |`);
    expect(row('RMQ_PREFETCH', table)?.endsWith('|  |')).toBe(true);
  });

  it('drops the row of a variable no class declares', () => {
    const withStale = page.replace('| `AMQP_URL` |', '| `GONE` | gateway | `1` | a setting removed |\n| `AMQP_URL` |');
    expect(tableOf(withStale)).toContain('GONE');
    expect(tableOf(renderPage(withStale))).not.toContain('GONE');
  });
});
