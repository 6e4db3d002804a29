import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** `first` (a page at the root, CONTRIBUTING.md or README.md) and every Markdown page under docs/ of `root`. */
export function markdownPages(root: string, first: string): string[] {
  const pages = [join(root, first)];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk(join(root, 'docs'));
  return pages;
}
