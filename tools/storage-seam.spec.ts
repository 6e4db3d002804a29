import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const ESLINT = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

/** The rules ESLint, with the project's config, breaks in `code` as if it were the file at `path`. */
async function problems(path: string, code: string): Promise<string[]> {
  const run = spawnSync(process.execPath, [ESLINT, '--format', 'json', '--stdin', '--stdin-filename', path], {
    cwd: ROOT,
    input: code,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(run.stdout) as Array<{ messages: Array<{ severity: number; ruleId: string | null }> }>;
  return result.messages.filter((message) => message.severity === 2).map((message) => message.ruleId ?? 'parse');
}

const OPENS_A_COLLECTION = `
import { Connection } from 'mongoose';
export async function count(connection: Connection): Promise<number> {
  return connection.collection('properties').countDocuments();
}
`;

const TAKES_A_BLOCK = `
import { Storage } from '@app/persistence';
export function lists(storage: Storage): unknown {
  return storage.orderedLists('property_list');
}
`;

/** The storage seam, enforced: in an app, only its repositories reach the database or the lib's blocks. */
describe('the storage seam', () => {
  jest.setTimeout(60_000);

  it.each([
    'apps/properties/src/properties/properties.service.ts',
    'apps/applications/src/use-cases/applications.service.ts',
    'apps/webhooks/src/subscriptions/webhooks.service.ts',
  ])('refuses a collection, mongoose or a storage block in %s', async (path) => {
    expect(await problems(path, OPENS_A_COLLECTION)).toEqual(['no-restricted-imports', 'no-restricted-syntax']);
    expect(await problems(path, TAKES_A_BLOCK)).toEqual(['no-restricted-imports']);
  });

  it.each(['apps/properties/src/properties/properties.repository.ts', 'apps/applications/src/store/applications.repository.ts'])(
    'lets the repository %s reach them',
    async (path) => {
      expect(await problems(path, OPENS_A_COLLECTION)).toEqual([]);
      expect(await problems(path, TAKES_A_BLOCK)).toEqual([]);
    },
  );
});
