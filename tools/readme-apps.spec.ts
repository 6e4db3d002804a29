import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
