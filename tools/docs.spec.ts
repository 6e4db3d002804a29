import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { markdownPages } from './markdown-pages';

const ROOT = join(__dirname, '..');

/** CONTRIBUTING.md and every page of the manual. */
const manualPages = () => markdownPages(ROOT, 'CONTRIBUTING.md');

describe('the README', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');

  it('shows how to run the whole stack and every test in its first lines', () => {
    const top = lines.slice(0, 40).join('\n');
    expect(top).toContain('npm ci && npm start');
    expect(top).toMatch(/^npm test\b/m);
  });

  it('stays a front door of about 200 lines, the manual holding the rest', () => {
    expect(lines.length).toBeLessThanOrEqual(210);
  });
});

describe('every page of the manual', () => {
  it.each(manualPages().map((path) => [relative(ROOT, path)]))('%s opens with whom it is for and what it answers', (page) => {
    const [title, blank, opening] = readFileSync(join(ROOT, page), 'utf8').split('\n');
    expect([title.startsWith('# '), blank, opening.startsWith('For ')]).toEqual([true, '', true]);
  });
});
