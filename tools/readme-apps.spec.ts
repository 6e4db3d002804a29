import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORM_PRESETS } from '../libs/contracts/src/form-presets';
import { APPS, UPGRADE_ORDER } from '../scripts/apps';

/**
 * What the README and the manual say about the apps, against the apps there are: an app added to
 * apps/ (and to scripts/apps.js, which every launcher asks) must show in the README's count and
 * layout, and in the operators' log fields, broker users and upgrade order; a library added to
 * libs/ in the layout.
 */
const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = read('README.md');
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const sorted = (names: Iterable<string>) => [...names].sort();

/** The text of `file`'s section headed `heading`, up to the next heading. */
function section(file: string, heading: string): string {
  const text = read(file);
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const rest = text.slice(start + heading.length);
  const next = rest.search(/^#{2,3} /m);
  return next < 0 ? rest : rest.slice(0, next);
}

const folders = (parent: string) =>
  readdirSync(join(ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('the README’s apps', () => {
  it('are those of apps/, as scripts/apps.js lists them', () => {
    expect(sorted(APPS)).toEqual(sorted(folders('apps')));
  });

  it('are counted right where the README introduces them', () => {
    expect(readme).toContain(`${NUMBERS[APPS.length].replace(/^./, (c) => c.toUpperCase())} apps make it up (\`apps/\`)`);
    expect(readme).not.toMatch(new RegExp(`\\b(${NUMBERS.filter((_, n) => n !== APPS.length).join('|')}) apps\\b`, 'i'));
  });

  it('are each in the layout, and no other', () => {
    const listed = [...section('README.md', '## Layout').matchAll(/^apps\/([\w-]+) /gm)].map(([, name]) => name);
    expect(sorted(listed)).toEqual(sorted(APPS));
  });

  it('each name the service of their log lines, and have a broker user of their own', () => {
    const services = /`service` \(([^)]*)\)/.exec(section('docs/operators/observability.md', '## Logs'))?.[1] ?? '';
    expect(sorted([...services.matchAll(/`([\w-]+)`/g)].map(([, name]) => name))).toEqual(sorted(APPS));
    const brokerUsers = section('docs/operators/security.md', '## Broker users, and what a service trusts');
    const users = [...brokerUsers.matchAll(/^\| `([\w-]+)` \|/gm)].map(([, name]) => name);
    expect(sorted(users)).toEqual(sorted([...APPS, 'operator']));
  });

  it('are upgraded in the order the operators are told, UPGRADE_ORDER', () => {
    expect(sorted(UPGRADE_ORDER)).toEqual(sorted(APPS));
    const named = [...section('docs/operators/upgrades.md', '## The order').matchAll(/\*\*(\w+)\*\*/g)].map(([, name]) => name);
    expect(named.filter((name) => APPS.includes(name))).toEqual(UPGRADE_ORDER);
  });
});

describe('the README’s libraries', () => {
  it('are each in the layout, and no other', () => {
    const listed = [...section('README.md', '## Layout').matchAll(/^libs\/([\w-]+) /gm)].map(([, name]) => name);
    expect(sorted(listed)).toEqual(sorted(folders('libs')));
  });
});

describe('the Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

  it('counts and names the apps it builds an image of', () => {
    expect(dockerfile).toContain(`One image definition for the ${NUMBERS[APPS.length]} apps`);
    const named = /\(APP is ([^)]*)\)/.exec(dockerfile)?.[1] ?? '';
    expect(sorted(named.split(/, | or /))).toEqual(sorted(APPS));
  });

  it('exposes every port the apps listen on by default, and no other', () => {
    const ports = APPS.flatMap((app) => {
      const source = readFileSync(join(ROOT, 'apps', app, 'src', 'config', `${app}.environment.ts`), 'utf8');
      return [...source.matchAll(/\b\w*PORT: number = (\d+);/g)].map(([, port]) => Number(port));
    });
    // Each app has its operations port; the gateway and the form a port of their own besides.
    expect(ports).toHaveLength(APPS.length + 2);
    const exposed = (/^EXPOSE (.*)$/m.exec(dockerfile)?.[1] ?? '').split(' ').map(Number);
    expect(sorted(exposed.map(String))).toEqual(sorted(ports.map(String)));
  });
});

describe('the form presets the docs say ship', () => {
  const shipped = FORM_PRESETS.map((preset) => preset.id);
  const listed = `${shipped.slice(0, -1).join(', ')} and ${shipped[shipped.length - 1]}`;

  it('are counted and listed as they are', () => {
    const api = read('docs/integrators/api.md');
    expect(api).toContain(`${NUMBERS[shipped.length].replace(/^./, (c) => c.toUpperCase())} presets ship with the service`);
    expect(api).toContain(`ids ${listed})`);
    expect(read('docs/integrators/walkthrough.md')).toContain(`the presets that ship (${listed})`);
  });
});
