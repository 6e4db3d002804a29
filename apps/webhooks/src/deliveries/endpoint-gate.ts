/** How much of an instance's deliveries one receiver and one client may take, and when to stop trying one. */
export interface GateLimits {
  /** Attempts under way at once to one endpoint (a URL's scheme, host and port). */
  endpointConcurrency: number;
  /** Attempts under way at once for one client, whatever its endpoints. */
  clientConcurrency: number;
  /** Attempts in a row an endpoint leaves unanswered (or answers 5xx) before it is left alone. */
  breakerFailures: number;
  /** How long an endpoint is left alone; then one attempt tells whether it is back. */
  breakerOpenMs: number;
}

/** Why an attempt must wait: its endpoint or client has as many under way as it may, or its endpoint is left alone. */
export type WaitReason = 'busy' | 'open';

export type Admission =
  { admitted: true; release: (endpointFailed: boolean) => void } | { admitted: false; reason: WaitReason; endpoint: string };

/** An attempt waiting in the instance for a slot of its endpoint and client, for a short while. */
interface Waiter {
  clientId: number;
  endpoint: string;
  settle: (admission: Admission) => void;
}

interface EndpointState {
  inFlight: number;
  /** Attempts in a row that failed for want of an answer (or with a 5xx). */
  failures: number;
  /** While set and in the future, no attempt is made; once past, one attempt at a time (half-open). */
  openUntil: number | null;
}

/**
 * Decides, in one instance, whether an attempt may start now. One client's slow or dead receiver
 * must not hold the instance's deliveries (WEBHOOK_CONCURRENCY) from every other client:
 *
 *  - at most `endpointConcurrency` attempts to one endpoint and `clientConcurrency` for one client
 *    are under way at once; an attempt over either waits, and the slots go to the others;
 *  - an endpoint that leaves `breakerFailures` attempts in a row unanswered (or answers 5xx) is
 *    left alone for `breakerOpenMs`: its attempts wait, none is made, and no retry of the
 *    schedule is spent. Then one attempt is let through: an answer closes it again, a failure
 *    leaves it alone for another period.
 *
 * The state is the instance's own: with n instances an endpoint may have n times the cap under way.
 */
export class EndpointGate {
  private readonly endpoints = new Map<string, EndpointState>();
  private readonly clients = new Map<number, number>();
  /** In the order they came: each released slot goes to the first one it can serve. */
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly limits: GateLimits,
    private readonly now: () => number = Date.now,
    private readonly onOpen: (endpoint: string, failures: number) => void = () => undefined,
  ) {}

  admit(clientId: number, url: string): Admission {
    const endpoint = endpointOf(url);
    const state = this.endpoints.get(endpoint) ?? { inFlight: 0, failures: 0, openUntil: null };
    const probing = state.openUntil !== null;
    const reason = this.waitReason(clientId, state);
    if (reason) return { admitted: false, reason, endpoint };
    const clientInFlight = this.clients.get(clientId) ?? 0;
    state.inFlight++;
    this.endpoints.set(endpoint, state);
    this.clients.set(clientId, clientInFlight + 1);
    let released = false;
    return {
      admitted: true,
      release: (endpointFailed) => {
        if (released) return;
        released = true;
        this.release(clientId, endpoint, state, endpointFailed, probing);
      },
    };
  }

  /**
   * Admits the attempt now, or as soon as a slot of its endpoint and client is free within
   * `waitMs`: a busy endpoint that answers quickly is then kept at its cap, instead of its attempts
   * going round a wait queue. At most as many attempts wait per endpoint as it may have under way,
   * and a client's attempts under way and waiting together are at most its cap, so that the
   * messages an instance holds (WEBHOOK_CONCURRENCY) are never all one client's; any more, an
   * endpoint left alone, or a wait that runs out, is not admitted.
   */
  acquire(clientId: number, url: string, waitMs: number): Promise<Admission> {
    const admission = this.admit(clientId, url);
    if (admission.admitted || admission.reason === 'open') return Promise.resolve(admission);
    if (!this.roomToWait(clientId, admission.endpoint)) return Promise.resolve(admission);
    const { endpoint } = admission;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        clientId,
        endpoint,
        settle: (settled) => {
          clearTimeout(timer);
          resolve(settled);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        resolve(admission);
      }, waitMs);
      this.waiters.push(waiter);
    });
  }

  /**
   * Why an attempt for `clientId` to `endpoint` would be held back now, with no room to wait for a
   * slot either; null when it would not. Asks without admitting: an attempt held back before can
   * be held again without being read first.
   */
  waiting(clientId: number, endpoint: string): WaitReason | null {
    const reason = this.waitReason(clientId, this.endpoints.get(endpoint) ?? { inFlight: 0, failures: 0, openUntil: null });
    return reason === 'busy' && this.roomToWait(clientId, endpoint) ? null : reason;
  }

  private roomToWait(clientId: number, endpoint: string): boolean {
    const forEndpoint = this.waiters.filter((waiter) => waiter.endpoint === endpoint).length;
    const forClient = this.waiters.filter((waiter) => waiter.clientId === clientId).length;
    const clientInFlight = this.clients.get(clientId) ?? 0;
    return forEndpoint < this.limits.endpointConcurrency && clientInFlight + forClient < this.limits.clientConcurrency;
  }

  private waitReason(clientId: number, state: EndpointState): WaitReason | null {
    if (state.openUntil !== null && this.now() < state.openUntil) return 'open';
    const cap = state.openUntil !== null ? 1 : this.limits.endpointConcurrency;
    if (state.inFlight >= cap || (this.clients.get(clientId) ?? 0) >= this.limits.clientConcurrency) return 'busy';
    return null;
  }

  /** Endpoints left alone now; for tests and the log. */
  openEndpoints(): string[] {
    const now = this.now();
    return [...this.endpoints].filter(([, state]) => state.openUntil !== null && now < state.openUntil).map(([name]) => name);
  }

  private release(clientId: number, endpoint: string, state: EndpointState, failed: boolean, probing: boolean): void {
    state.inFlight--;
    const clientInFlight = (this.clients.get(clientId) ?? 1) - 1;
    if (clientInFlight === 0) this.clients.delete(clientId);
    else this.clients.set(clientId, clientInFlight);
    if (failed) {
      state.failures++;
      if (probing || state.failures >= this.limits.breakerFailures) {
        const opens = state.openUntil === null || this.now() >= state.openUntil;
        state.openUntil = this.now() + this.limits.breakerOpenMs;
        if (opens) this.onOpen(endpoint, state.failures);
      }
    } else {
      state.failures = 0;
      state.openUntil = null;
    }
    // Nothing kept of an endpoint in good standing with nothing under way: the map stays small.
    if (state.inFlight === 0 && state.failures === 0) this.endpoints.delete(endpoint);
    this.serveWaiters();
  }

  /** Hands the slots free now to the waiters, first come first served; those of an endpoint left alone go. */
  private serveWaiters(): void {
    for (let i = 0; i < this.waiters.length;) {
      const waiter = this.waiters[i];
      const state = this.endpoints.get(waiter.endpoint) ?? { inFlight: 0, failures: 0, openUntil: null };
      const reason = this.waitReason(waiter.clientId, state);
      if (reason === 'busy') {
        i++;
        continue;
      }
      this.waiters.splice(i, 1);
      waiter.settle(
        reason === 'open' ? { admitted: false, reason, endpoint: waiter.endpoint } : this.admit(waiter.clientId, waiter.endpoint),
      );
    }
  }
}

/** A URL's scheme, host and port: one receiver, whatever its path. */
export function endpointOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
