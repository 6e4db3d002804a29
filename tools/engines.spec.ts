import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minVersion, satisfies } from 'semver';

/**
 * The Node versions package.json promises, against what every installed package asks for: `npm ci`
 * warns EBADENGINE for each package whose engines leave out the Node it runs on, and a newcomer
 * takes that for a broken checkout.
 */
const read = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');
const supported: string = JSON.parse(read('package.json')).engines.node;
const lowest = minVersion(supported)?.version;
const locked: Record<string, { engines?: { node?: string }; optional?: boolean }> = JSON.parse(
  read('package-lock.json'),
).packages;

describe('the Node versions the project supports', () => {
  it('start at a release of Node 20, and take in the exact release the image is built on', () => {
    expect(lowest).toMatch(/^20\./);
    const image = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-bookworm-slim$/m.exec(read('Dockerfile'))?.[1];
    expect(image).toMatch(/^24\./);
    expect(satisfies(image ?? '0.0.0', supported)).toBe(true);
  });

  it('suit every package npm ci installs, development tools included, from the lowest on', () => {
    const refusing = Object.entries(locked)
      .filter(([path, entry]) => path !== '' && !entry.optional && entry.engines?.node !== undefined)
      .filter(([, entry]) => !satisfies(lowest ?? '0.0.0', entry.engines?.node ?? '*'))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} wants Node ${entry.engines?.node}`);
    expect(refusing).toEqual([]);
  });
});
