import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORM_PRESETS } from '../libs/contracts/src/form-presets';
import { APPS, UPGRADE_ORDER } from '../scripts/apps';

/**
 * What the README says about the apps, against the apps there are: an app added to apps/ (and to
 * scripts/apps.js, which every launcher asks) must show in the README's count, its layout, its
 * log fields and its broker users, where a newcomer looks first.
 */
const ROOT = join(__dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const sorted = (names: Iterable<string>) => [...names].sort();

/** The text of the README's section headed `heading`, up to the next heading. */
function section(heading: string): string {
  const start = readme.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}"`);
  const rest = readme.slice(start + heading.length);
  const next = rest.search(/^#{2,3} /m);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('the README’s apps', () => {
  const folders = readdirSync(join(ROOT, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('are those of apps/, as scripts/apps.js lists them', () => {
    expect(sorted(APPS)).toEqual(sorted(folders));
  });

  it('are counted right where the README introduces them', () => {
    expect(readme).toContain(`${NUMBERS[APPS.length].replace(/^./, (c) => c.toUpperCase())} apps make it up (\`apps/\`)`);
    expect(readme).not.toMatch(new RegExp(`\\b(${NUMBERS.filter((_, n) => n !== APPS.length).join('|')}) apps\\b`, 'i'));
  });

  it('are each in the layout, and no other', () => {
    const listed = [...section('## Layout').matchAll(/^apps\/([\w-]+) /gm)].map(([, name]) => name);
    expect(sorted(listed)).toEqual(sorted(APPS));
  });

  it('each name the service of their log lines, and have a broker user of their own', () => {
    const services = /`service` \(([^)]*)\)/.exec(section('### Logs'))?.[1] ?? '';
    expect(sorted([...services.matchAll(/`([\w-]+)`/g)].map(([, name]) => name))).toEqual(sorted(APPS));
    const users = [...section('### Broker users, and what a service trusts').matchAll(/^\| `([\w-]+)` \|/gm)].map(
      ([, name]) => name,
    );
    expect(sorted(users)).toEqual(sorted([...APPS, 'operator']));
  });

  it('are upgraded in the order the README prescribes, UPGRADE_ORDER', () => {
    expect(sorted(UPGRADE_ORDER)).toEqual(sorted(APPS));
    const named = [...section('### Upgrading').matchAll(/\*\*(\w+)\*\*/g)].map(([, name]) => name);
    expect(named.filter((name) => APPS.includes(name))).toEqual(UPGRADE_ORDER);
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
    const api = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    expect(api).toContain(`${NUMBERS[shipped.length].replace(/^./, (c) => c.toUpperCase())} presets ship with the service`);
    expect(api).toContain(`ids ${listed})`);
    expect(readme).toContain(`the presets that ship (${listed})`);
  });
});
