import { currentDeadline, forRequests, outsideRequests } from '@app/contracts';

const MAX_BATCH = 100;

interface Waiter<T> {
  item: T;
  /** The deadline of the request that asked, if it came from one. */
  deadline: number | undefined;
  resolve(position: number): void;
  reject(error: unknown): void;
}

/**
 * Batches the claims of positions in a sequence (a list's next positions, say): the callers
 * that ask while a claim of the same sequence is under way are served together by the next
 * one, `claim(key, items)`, which must answer one position per item, in order; each caller
 * gets its own, in the order they came. So one process never races itself for a position, and
 * a busy sequence costs one claim per batch, not per caller. `failed(key)` hears of each claim
 * that failed, before its callers are rejected.
 *
 * The claims run outside the request of the caller that happened to start them, each batch
 * against the latest deadline of the callers it serves: a caller whose deadline has passed
 * must not make the claims of those who joined it later fail at once.
 */
export class ClaimBatches<K, T> {
  private readonly waiting = new Map<K, Array<Waiter<T>>>();

  constructor(
    private readonly claim: (key: K, items: T[]) => Promise<number[]>,
    private readonly failed: (key: K) => void = () => undefined,
  ) {}

  take(key: K, item: T): Promise<number> {
    return new Promise((resolve, reject) => {
      const waiter = { item, deadline: currentDeadline(), resolve, reject };
      const waiters = this.waiting.get(key);
      if (waiters) {
        waiters.push(waiter);
        return;
      }
      this.waiting.set(key, [waiter]);
      outsideRequests(() => void this.serve(key));
    });
  }

  private async serve(key: K): Promise<void> {
    const waiters = this.waiting.get(key)!;
    while (waiters.length > 0) {
      const batch = waiters.splice(0, MAX_BATCH);
      try {
        const positions = await forRequests(
          batch.map((waiter) => waiter.deadline),
          () =>
            this.claim(
              key,
              batch.map((waiter) => waiter.item),
            ),
        );
        batch.forEach((waiter, i) => waiter.resolve(positions[i]));
      } catch (error) {
        this.failed(key);
        batch.forEach((waiter) => waiter.reject(error));
      }
    }
    this.waiting.delete(key);
  }
}
