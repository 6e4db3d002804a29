/**
 * The environment reference of docs/operators/configuration.md: one row per variable the apps
 * read, made from their environment classes (the name, which apps read it, its default) beside the
 * meaning the page itself gives it. `tools/environment-reference.spec.ts` fails when the page is
 * not what this makes, so the table cannot drift from the code.
 *
 *   npm run docs:environment   rewrites the table in place, keeping each variable's meaning
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { DerivedDefaults } from '@app/config';
import { ApplicationsEnvironment } from '../apps/applications/src/config/applications.environment';
import { FormEnvironment } from '../apps/form/src/config/form.environment';
import { GatewayEnvironment } from '../apps/gateway/src/config/gateway.environment';
import { NotificationsEnvironment } from '../apps/notifications/src/config/notifications.environment';
import { PropertiesEnvironment } from '../apps/properties/src/config/properties.environment';
import { WebhooksEnvironment } from '../apps/webhooks/src/config/webhooks.environment';
import { APPS } from '../scripts/apps';

const ROOT = join(__dirname, '..');
export const REFERENCE_PAGE = join(ROOT, 'docs', 'operators', 'configuration.md');
export const START = '<!-- environment-reference: start -->';
export const END = '<!-- environment-reference: end -->';
const HEADER = ['| variable | read by | default | meaning |', '|---|---|---|---|'];

/** Each app's environment class, in the order of scripts/apps.js, and the file that declares it. */
export const ENVIRONMENTS: Record<string, { type: new () => object; source: string }> = {
  properties: { type: PropertiesEnvironment, source: 'apps/properties/src/config/properties.environment.ts' },
  applications: { type: ApplicationsEnvironment, source: 'apps/applications/src/config/applications.environment.ts' },
  webhooks: { type: WebhooksEnvironment, source: 'apps/webhooks/src/config/webhooks.environment.ts' },
  notifications: { type: NotificationsEnvironment, source: 'apps/notifications/src/config/notifications.environment.ts' },
  form: { type: FormEnvironment, source: 'apps/form/src/config/form.environment.ts' },
  gateway: { type: GatewayEnvironment, source: 'apps/gateway/src/config/gateway.environment.ts' },
};

export interface Variable {
  name: string;
  /** The apps that read it, in the order of scripts/apps.js. */
  apps: string[];
  /** What each app takes when it is unset, as the page shows it, by app. */
  defaults: Record<string, string>;
  /** The apps whose class works its default out from other settings (`deriveDefaults`). */
  derivedAt: string[];
}

function hasDerivedDefaults(config: object): config is DerivedDefaults {
  return typeof (config as Partial<DerivedDefaults>).deriveDefaults === 'function';
}

/** The variables a class's `deriveDefaults` may set, as its source assigns them. */
function derivedIn(source: string): Set<string> {
  const text = readFileSync(join(ROOT, source), 'utf8');
  const start = text.indexOf('deriveDefaults(');
  if (start < 0) return new Set();
  return new Set([...text.slice(start).matchAll(/this\.([A-Z][A-Z0-9_]*) =(?!=)/g)].map(([, name]) => name));
}

/** Whether the class lets the variable be unset (`@IsOptional()` or a decorator built on it). */
function isOptional(type: new () => object, name: string): boolean {
  return getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .some((metadata) => metadata.propertyName === name && metadata.type === ValidationTypes.CONDITIONAL_VALIDATION);
}

function shown(value: unknown, optional: boolean): string {
  if (value === undefined) return optional ? 'unset' : 'none: required';
  if (value === '') return 'empty';
  return `\`${String(value)}\``;
}

/** Every variable the apps read, by name, as their classes declare it. */
export function readVariables(): Variable[] {
  const byName = new Map<string, Variable>();
  for (const [app, { type, source }] of Object.entries(ENVIRONMENTS)) {
    // ES2022 class fields are defined whether they have an initializer or not.
    const config = new type() as Record<string, unknown>;
    if (hasDerivedDefaults(config)) config.deriveDefaults(new Set());
    const derived = derivedIn(source);
    for (const name of Object.keys(config).filter((key) => /^[A-Z][A-Z0-9_]*$/.test(key))) {
      const variable = byName.get(name) ?? { name, apps: [], defaults: {}, derivedAt: [] };
      variable.apps.push(app);
      variable.defaults[app] = shown(config[name], isOptional(type, name));
      if (derived.has(name)) variable.derivedAt.push(app);
      byName.set(name, variable);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function readBy(apps: string[]): string {
  return apps.length === APPS.length ? 'every app' : apps.join(', ');
}

/** One default for all, or each value with the apps that take it. */
function defaultOf({ apps, defaults, derivedAt }: Variable): string {
  const values = [...new Set(apps.map((app) => defaults[app]))];
  const text =
    values.length === 1
      ? values[0]
      : values.map((value) => `${value} (${apps.filter((app) => defaults[app] === value).join(', ')})`).join(', ');
  return derivedAt.length === 0 ? text : `${text}; worked out from other settings at the ${derivedAt.join(', ')}`;
}

const cells = (row: string): string[] =>
  row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** The meaning each row of the page's table gives its variable, by name. */
export function meanings(page: string): Map<string, string> {
  const table = tableOf(page);
  const rows = table.split('\n').slice(HEADER.length);
  return new Map(
    rows.map((row) => {
      const [variable, , , meaning = ''] = cells(row);
      return [variable.replace(/`/g, ''), meaning];
    }),
  );
}

/** The table between the page's markers. */
export function tableOf(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the page has no "${START}" ... "${END}" section`);
  return page.slice(start + START.length, end).trim();
}

/** The table the classes make, with the meanings `known` gives (empty for a variable it lacks). */
export function renderTable(variables: Variable[], known: Map<string, string>): string {
  const rows = variables.map(
    (variable) =>
      `| \`${variable.name}\` | ${readBy(variable.apps)} | ${defaultOf(variable)} | ${known.get(variable.name) ?? ''} |`,
  );
  return [...HEADER, ...rows].join('\n');
}

/** The page with its table made afresh from the classes. */
export function renderPage(page: string): string {
  const table = renderTable(readVariables(), meanings(page));
  return `${page.slice(0, page.indexOf(START) + START.length)}\n\n${table}\n\n${page.slice(page.indexOf(END))}`;
}

if (require.main === module) {
  const page = readFileSync(REFERENCE_PAGE, 'utf8');
  writeFileSync(REFERENCE_PAGE, renderPage(page));
  const missing = [...meanings(readFileSync(REFERENCE_PAGE, 'utf8'))].filter(([, meaning]) => meaning === '');
  for (const [name] of missing) process.stderr.write(`${name}: say what it means in ${REFERENCE_PAGE}\n`);
  process.exitCode = missing.length > 0 ? 1 : 0;
}
