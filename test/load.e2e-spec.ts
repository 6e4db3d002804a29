import { api } from './support/http';
import { Load, stopEveryLoad } from './support/load';
import { freePort } from '../tools/stack';

/**
 * The load the fault suites drive: a suite whose scenario failed before stopping its load stops
 * it after the test, so that its workers, retrying against a stack that is gone, do not keep
 * Jest from exiting.
 */
describe('the fault suites’ load', () => {
  it('is stopped by stopEveryLoad, however its requests fail, and its workers end', async () => {
    // Nothing listens there: every attempt fails, and a worker would retry it for ever.
    const load = new Load(api(`http://127.0.0.1:${await freePort()}`), { workers: 3 }).start();
    await load.next((attempt) => attempt.status === 0);

    // Resolves once every worker has ended; without it, this test would time out.
    await stopEveryLoad();

    expect(load.creates.every((create) => create.status === 0)).toBe(true);
  });
});
