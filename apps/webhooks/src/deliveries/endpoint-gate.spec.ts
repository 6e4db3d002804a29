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
    expect(gate.waiting(1, 'https://slow.example')).toBe('busy');
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

  it('names an endpoint by scheme, host and port', () => {
    expect(endpointOf('https://Hooks.Example:8443/a/b?token=secret')).toBe('https://hooks.example:8443');
    expect(endpointOf('http://127.0.0.1:9000/')).toBe('http://127.0.0.1:9000');
  });
});
