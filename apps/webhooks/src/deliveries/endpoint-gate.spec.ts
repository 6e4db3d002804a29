import { Admission, EndpointGate, endpointOf } from './endpoint-gate';

const LIMITS = { endpointConcurrency: 2, clientConcurrency: 3, breakerFailures: 3, breakerOpenMs: 30_000 };

function admitted(admission: Admission): (failed: boolean) => void {
  if (!admission.admitted) throw new Error(`not admitted: ${admission.reason}`);
  return admission.release;
}

describe('EndpointGate', () => {
  let now: number;
  let opened: Array<[string, number]>;
  let gate: EndpointGate;

  beforeEach(() => {
    now = 1_000_000;
    opened = [];
    gate = new EndpointGate(
      LIMITS,
      () => now,
      (endpoint, failures) => opened.push([endpoint, failures]),
    );
  });

  it('lets an endpoint have its cap of attempts under way, and the next wait until one ends', () => {
    const first = admitted(gate.admit(1, 'https://slow.example/a'));
    admitted(gate.admit(1, 'https://slow.example/b?x=1'));
    expect(gate.admit(1, 'https://slow.example/c')).toEqual({
      admitted: false,
      reason: 'busy',
      endpoint: 'https://slow.example',
    });
    // Busy, but with room to wait in the instance for one to end: not held back unread.
    expect(gate.waiting(1, 'https://slow.example')).toBeNull();
    expect(gate.waiting(1, 'https://idle.example')).toBeNull();
    // Another endpoint of the same client still goes, up to the client's cap.
    admitted(gate.admit(1, 'https://other.example/'));
    expect(gate.admit(1, 'https://third.example/')).toMatchObject({ admitted: false, reason: 'busy' });
    // Another client is not held by the first one's attempts.
    admitted(gate.admit(2, 'https://third.example/'));
    first(false);
    admitted(gate.admit(1, 'https://slow.example/c'));
  });

  it('counts a release once, however often it is called', () => {
    const release = admitted(gate.admit(1, 'https://a.example/'));
    admitted(gate.admit(1, 'https://a.example/'));
    release(false);
    release(false);
    admitted(gate.admit(1, 'https://a.example/'));
    expect(gate.admit(1, 'https://a.example/')).toMatchObject({ admitted: false, reason: 'busy' });
  });

  it('leaves alone an endpoint that failed breakerFailures times in a row, then lets one attempt probe it', () => {
    for (let i = 0; i < 2; i++) admitted(gate.admit(1, 'https://down.example/'))(true);
    // An answer in between starts the count again.
    admitted(gate.admit(1, 'https://down.example/'))(false);
    for (let i = 0; i < 3; i++) admitted(gate.admit(1, 'https://down.example/'))(true);
    expect(opened).toEqual([['https://down.example', 3]]);
    expect(gate.admit(1, 'https://down.example/x')).toEqual({
      admitted: false,
      reason: 'open',
      endpoint: 'https://down.example',
    });
    expect(gate.openEndpoints()).toEqual(['https://down.example']);
    expect(gate.waiting(2, 'https://down.example')).toBe('open');
    // Other endpoints of the client are not touched.
    admitted(gate.admit(1, 'https://up.example/'))(false);

    now += LIMITS.breakerOpenMs;
    // Half-open: one attempt at a time.
    const probe = admitted(gate.admit(1, 'https://down.example/'));
    expect(gate.admit(1, 'https://down.example/')).toMatchObject({ admitted: false, reason: 'busy' });
    probe(true);
    // It failed: left alone for another period, and said so once more.
    expect(gate.admit(1, 'https://down.example/')).toMatchObject({ admitted: false, reason: 'open' });
    expect(opened).toHaveLength(2);

    now += LIMITS.breakerOpenMs;
    admitted(gate.admit(1, 'https://down.example/'))(false);
    // It answered: back to its full cap.
    admitted(gate.admit(1, 'https://down.example/'));
    admitted(gate.admit(1, 'https://down.example/'));
    expect(gate.openEndpoints()).toEqual([]);
  });

  it('keeps nothing of an endpoint in good standing with nothing under way', () => {
    for (let i = 0; i < 1000; i++) admitted(gate.admit(i, `https://host${i}.example/`))(false);
    expect((gate as unknown as { endpoints: Map<string, unknown> }).endpoints.size).toBe(0);
    expect((gate as unknown as { clients: Map<number, number> }).clients.size).toBe(0);
  });

  describe('acquire', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('hands a slot released within the wait to the attempt waiting for it, first come first served', async () => {
      const first = admitted(gate.admit(1, 'https://busy.example/'));
      admitted(gate.admit(1, 'https://busy.example/'));
      const served: number[] = [];
      // Two clients wait: client 1 has room for one more of its own, client 2 for any.
      const waiting = [1, 2].map((n) =>
        gate.acquire(n, 'https://busy.example/', 1000).then((admission) => {
          served.push(n);
          return admission;
        }),
      );
      first(false);
      const [next] = await Promise.race([waiting[0], waiting[1]]).then((admission) => [admission]);
      expect(next.admitted).toBe(true);
      expect(served).toEqual([1]);
      // The second one's wait runs out: it is held back as busy, not admitted.
      jest.advanceTimersByTime(1000);
      expect(await waiting[1]).toMatchObject({ admitted: false, reason: 'busy', endpoint: 'https://busy.example' });
    });

    it('lets as many wait per endpoint as it may have under way, and a client no more under way and waiting than its cap', async () => {
      admitted(gate.admit(1, 'https://busy.example/'));
      admitted(gate.admit(1, 'https://busy.example/'));
      // Client 1 has 2 under way of its 3: one may wait.
      const waiting = [gate.acquire(1, 'https://busy.example/', 1000)];
      expect(gate.waiting(1, 'https://busy.example')).toBe('busy');
      expect(await gate.acquire(1, 'https://busy.example/', 1000)).toMatchObject({ admitted: false, reason: 'busy' });
      // Another client may wait for the endpoint too, up to the endpoint's 2 waiting.
      expect(gate.waiting(2, 'https://busy.example')).toBeNull();
      waiting.push(gate.acquire(2, 'https://busy.example/', 1000));
      expect(await gate.acquire(3, 'https://busy.example/', 1000)).toMatchObject({ admitted: false, reason: 'busy' });
      jest.advanceTimersByTime(1000);
      for (const admission of await Promise.all(waiting)) expect(admission).toMatchObject({ admitted: false, reason: 'busy' });
    });

    it('sends the waiters of an endpoint that is left alone away at once', async () => {
      const url = 'https://down.example/';
      const releases = [admitted(gate.admit(1, url)), admitted(gate.admit(1, url))];
      // Each failure frees a slot, which the next waiter takes, until the third opens the breaker.
      const first = gate.acquire(2, url, 1000);
      releases[0](true);
      const second = gate.acquire(3, url, 1000);
      releases[1](true);
      const third = gate.acquire(4, url, 1000);
      admitted(await first)(true);
      expect(opened).toEqual([['https://down.example', 3]]);
      expect(await third).toEqual({ admitted: false, reason: 'open', endpoint: 'https://down.example' });
      expect((await second).admitted).toBe(true);
    });
  });

  it('names an endpoint by scheme, host and port', () => {
    expect(endpointOf('https://Hooks.Example:8443/a/b?token=secret')).toBe('https://hooks.example:8443');
    expect(endpointOf('http://127.0.0.1:9000/')).toBe('http://127.0.0.1:9000');
  });
});
