import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const BROKER_RESTARTING = ['test/faults.e2e-spec.ts', 'test/webhook-faults.e2e-spec.ts'];

/** The suites the end-to-end config selects, relative to the repository, with `env` added. */
function selected(env: NodeJS.ProcessEnv): string[] {
  const listed = execFileSync(
    process.execPath,
    [require.resolve('jest/bin/jest'), '--config', 'test/jest-e2e.config.js', '--listTests'],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  return listed
    .split('\n')
    .filter(Boolean)
    .map((file) => file.slice(ROOT.length + 1));
}

/**
 * The two suites that restart the broker break whatever else uses it meanwhile: whoever shares
 * one can leave them out. CI sets nothing, and runs them.
 */
describe('the end-to-end config', () => {
  it('runs the suites that restart the broker unless told not to', () => {
    const all = selected({ RESTART_BROKER: undefined });
    expect(all).toEqual(expect.arrayContaining(BROKER_RESTARTING));
    expect(selected({ RESTART_BROKER: 'true' }).sort()).toEqual([...all].sort());

    const without = selected({ RESTART_BROKER: 'false' });
    expect(without.sort()).toEqual(all.filter((suite) => !BROKER_RESTARTING.includes(suite)).sort());
  });

  it('refuses a RESTART_BROKER it does not know', () => {
    expect(() => selected({ RESTART_BROKER: 'no' })).toThrow(/RESTART_BROKER must be true or false/);
  });
});
