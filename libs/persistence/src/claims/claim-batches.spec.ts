import { timeRemainingMs, withDeadline } from '@app/contracts';
import { ClaimBatches } from './claim-batches';

describe('ClaimBatches', () => {
  /** A claim that records the time its work had left, and answers when released. */
  function heldClaims() {
    const remaining: Array<number | undefined> = [];
    const releases: Array<() => void> = [];
    const batches = new ClaimBatches<string, number>(
      (_key, items) =>
        new Promise((resolve) => {
          remaining.push(timeRemainingMs());
          releases.push(() => resolve(items));
        }),
    );
    return { batches, remaining, releases };
  }

  it('does not bound the claims of the callers that came after a timed-out one, once it is served', async () => {
    const { batches, remaining, releases } = heldClaims();
    const stale = withDeadline(Date.now() - 1, () => batches.take('list', 1));
    const fresh = withDeadline(Date.now() + 60_000, () => batches.take('list', 2));
    releases[0]();
    await expect(stale).resolves.toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    releases[1]();
    await expect(fresh).resolves.toBe(2);
    // The batch the stale caller started must not lend its deadline to the next one's work.
    expect(remaining[1]).toBeGreaterThan(50_000);
  });

  it('claims outside any deadline for a caller outside a request', async () => {
    const { batches, remaining, releases } = heldClaims();
    const started = withDeadline(Date.now() - 1, () => batches.take('list', 1));
    const background = batches.take('list', 2);
    releases[0]();
    await started;
    await new Promise((resolve) => setImmediate(resolve));
    releases[1]();
    await expect(background).resolves.toBe(2);
    expect(remaining[1]).toBeUndefined();
  });
});
