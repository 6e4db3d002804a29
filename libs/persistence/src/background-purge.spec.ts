import { BackgroundPurge } from './background-purge';

describe('BackgroundPurge', () => {
  afterEach(() => jest.useRealTimers());

  it('purges on its timer until stopped, however often it is started', async () => {
    jest.useFakeTimers();
    const purge = jest.fn(async () => 3);
    const purges = new BackgroundPurge('things', 1000, purge);
    purges.start();
    purges.start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(purge).toHaveBeenCalledTimes(3);
    purges.stop();
    await jest.advanceTimersByTimeAsync(3000);
    expect(purge).toHaveBeenCalledTimes(3);
  });

  it('says how many went, and 0 when the purge failed, so that the next one tries again', async () => {
    expect(await new BackgroundPurge('things', 1000, async () => 7).run()).toBe(7);
    const failing = new BackgroundPurge('things', 1000, () => Promise.reject(new Error('database gone')));
    expect(await failing.run()).toBe(0);
  });
});
