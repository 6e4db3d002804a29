import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const PAGE = readFileSync(join(ROOT, 'docs/contributors/architecture.md'), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RULES = require(join(ROOT, '.dependency-cruiser.js')) as { LIBRARIES: Record<string, string[]>; LAYERS: string[] };

/** The body rows, as arrays of cells, of the first table from the line `start` on (a heading or the table's own head). */
function table(start: string): string[][] {
  const lines = PAGE.split('\n');
  const rows: string[][] = [];
  for (const line of lines.slice(lines.indexOf(start))) {
    if (line.startsWith('|'))
      rows.push(
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    else if (rows.length > 0) break;
  }
  expect(rows.length).toBeGreaterThan(2);
  return rows.slice(2);
}

const folders = (path: string) =>
  readdirSync(join(ROOT, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** docs/contributors/architecture.md draws the tree as it is, and its tables are what lint enforces. */
describe('the architecture page', () => {
  it('gives each library the row of .dependency-cruiser.js LIBRARIES, and every library a row', () => {
    const rows = table('## Libraries (`libs/<lib>/src`, imported as `@app/<lib>`)');
    const documented = Object.fromEntries(
      rows.map(([name, , mayImport]) => [name, mayImport === '—' ? [] : mayImport.split(', ').sort()]),
    );
    const enforced = Object.fromEntries(Object.entries(RULES.LIBRARIES).map(([name, allowed]) => [name, [...allowed].sort()]));
    expect(documented).toEqual(enforced);
    expect(Object.keys(documented).sort()).toEqual(folders('libs'));
  });

  it('names every folder of each app, and each app', () => {
    const rows = table('## Apps (`apps/<app>/src`)');
    const named = Object.fromEntries(
      rows.map(([app, , cell]) => [app, [...new Set([...cell.matchAll(/`([\w-]+)\/`/g)].map(([, folder]) => folder))].sort()]),
    );
    const actual = Object.fromEntries(folders('apps').map((app) => [app, folders(`apps/${app}/src`)]));
    expect(named).toEqual(actual);
  });

  it('lists the layers in the order dependency-cruiser enforces them, and they are the layered app’s folders', () => {
    const documented = table('| layer | holds |').map(([layer]) => layer.replace(/^`([\w-]+)\/`$/, '$1'));
    expect(documented).toEqual(RULES.LAYERS);
    expect(folders('apps/applications/src').filter((folder) => folder !== 'config')).toEqual([...RULES.LAYERS].sort());
  });
});
