import { LocalTokenBuckets } from './token-bucket';

/** A clock the spec moves by hand, in milliseconds. */
function manualClock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const LIMIT = { perSecond: 10, burst: 4 };

function takeMany(buckets: LocalTokenBuckets, count: number, name = 'client-1', limit = LIMIT) {
  return Array.from({ length: count }, () => buckets.takeNow(name, limit));
}

describe('LocalTokenBuckets', () => {
  it('lets a full burst through at once, then refuses, saying when the next token comes', () => {
    const buckets = new LocalTokenBuckets(manualClock().now);
    const decisions = takeMany(buckets, 6);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, false, false]);
    expect(decisions[4].retryAfterMs).toBe(100);
    expect(decisions[0].retryAfterMs).toBe(0);
  });

  it('refills at the sustained rate', () => {
    const clock = manualClock();
    const buckets = new LocalTokenBuckets(clock.now);
    takeMany(buckets, 4);

    clock.advance(250);
    expect(takeMany(buckets, 3).map((d) => d.allowed)).toEqual([true, true, false]);

    // Half a token was left; a quarter more comes in 25 ms, the rest in another 25 ms.
    clock.advance(25);
    const [next] = takeMany(buckets, 1);
    expect(next).toEqual({ allowed: false, retryAfterMs: 25, remaining: 0 });
    clock.advance(25);
    expect(takeMany(buckets, 1)[0].allowed).toBe(true);
  });

  it('holds 1 request per 1000/perSecond ms over a long run, whatever is asked', () => {
    const clock = manualClock();
    const buckets = new LocalTokenBuckets(clock.now);
    let allowed = 0;
    for (let ms = 0; ms < 10_000; ms += 10) {
      allowed += takeMany(buckets, 3).filter((d) => d.allowed).length;
      clock.advance(10);
    }
    // The burst, then one every 100 ms of the 9.99 s over which tokens were taken.
    expect(allowed).toBe(LIMIT.burst + 99);
  });

  it('never holds more than the burst, however long it was idle', () => {
    const clock = manualClock();
    const buckets = new LocalTokenBuckets(clock.now);
    takeMany(buckets, 1);
    clock.advance(3_600_000);
    expect(takeMany(buckets, 6).filter((d) => d.allowed)).toHaveLength(4);
  });

  it('keeps each client in its own bucket, with its own limit', () => {
    const buckets = new LocalTokenBuckets(manualClock().now);
    takeMany(buckets, 4, 'client-1');
    expect(takeMany(buckets, 1, 'client-1')[0].allowed).toBe(false);
    expect(takeMany(buckets, 2, 'client-2', { perSecond: 1, burst: 2 }).map((d) => d.allowed)).toEqual([true, true]);
    const [refused] = takeMany(buckets, 1, 'client-2', { perSecond: 1, burst: 2 });
    expect(refused).toEqual({ allowed: false, retryAfterMs: 1000, remaining: 0 });
  });

  it('forgets the buckets of callers that went idle: memory stays bounded however many addresses called', () => {
    const clock = manualClock();
    const buckets = new LocalTokenBuckets(clock.now);
    for (let caller = 0; caller < 10_000; caller++) {
      takeMany(buckets, 1, `address:${caller}`);
      clock.advance(10);
    }
    // A bucket with one token spent is full again 100 ms later: some ten are not yet.
    expect(buckets.size).toBeLessThan(50);
    clock.advance(1_000);
    takeMany(buckets, 1, 'address:last');
    expect(buckets.size).toBeLessThan(50);
  });

  it('keeps the bucket of a caller that is not full again, so evicting never hands out a fresh burst early', () => {
    const clock = manualClock();
    const buckets = new LocalTokenBuckets(clock.now);
    takeMany(buckets, 4, 'busy');
    for (let caller = 0; caller < 100; caller++) takeMany(buckets, 1, `address:${caller}`);
    expect(takeMany(buckets, 1, 'busy')[0].allowed).toBe(false);
  });
});
