import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from './errors';

/** What the client tells `onRetry` before it waits to send a request again. */
export interface RetryEvent {
  method: string;
  path: string;
  /** The retry about to be made: 1 for the first. */
  retry: number;
  /** The status that asked for it (429, 503, or 409 for a key still being worked on), or null for a lost connection. */
  status: number | null;
  /** How long the client waits first: Retry-After when the answer had one. */
  delayMs: number;
  /** The Idempotency-Key the request is sent with, the same on every retry; null when it has none. */
  idempotencyKey: string | null;
}

export interface ClientOptions {
  /** Where the API is: the deployment's PUBLIC_BASE_URL, such as `https://api.example.com`. */
  baseUrl: string;
  /** The client account's API key. */
  apiKey: string;
  /** How many times a request is sent again after a 429, a 503 or a lost connection. Default 3. */
  maxRetries?: number;
  /** The longest wait before a retry; an answer whose Retry-After asks for more is thrown. Default 30,000 ms. */
  maxRetryDelayMs?: number;
  /** Called before each retry (to log it, say). */
  onRetry?: (event: RetryEvent) => void;
  /** The fetch to send requests with; Node's global one by default. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /** Sends this Idempotency-Key, or a new UUID for `true`: the same on every retry of the request. */
  idempotencyKey?: string | true;
  ifMatch?: string;
}

/** A request that failed before any answer came, after the retries the client made. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
}

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
/** The wait before the first retry when the answer does not say (Retry-After); doubled for each one after. */
const BACKOFF_MS = 500;

/**
 * Sends the API's requests: the key, JSON in and out, the API's error body as a typed error, and
 * the retries that are safe. A 429 was refused before any work, so every request is retried. A 503
 * or a lost connection means "maybe done", so only a GET, or a POST with an Idempotency-Key (which
 * the API answers from its first outcome), is sent again; a PATCH or DELETE is not, as its second
 * try could be refused for a change its first one made. A 409 to a retry with a key means the
 * first try is still being worked on: it is retried too.
 */
export class Transport {
  private readonly etags = new WeakMap<object, string>();
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const idempotencyKey = options.idempotencyKey === true ? randomUUID() : (options.idempotencyKey ?? null);
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const repeatable = method === 'GET' || idempotencyKey !== null;
    const maxRetries = this.options.maxRetries ?? DEFAULT_MAX_RETRIES;

    for (let retry = 1; ; retry++) {
      const retryAfter = (status: number | null, delayMs: number): Promise<unknown> | null => {
        if (retry > maxRetries || delayMs > (this.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS)) return null;
        this.options.onRetry?.({ method, path, retry, status, delayMs, idempotencyKey });
        return sleep(delayMs);
      };
      let response: Response;
      try {
        response = await this.fetch(url, { method, headers, body });
      } catch (error) {
        const waited = repeatable ? retryAfter(null, backoff(retry)) : null;
        if (!waited) throw new ConnectionError(`${method} ${path} failed: ${describe(error)}`, { cause: error });
        await waited;
        continue;
      }
      const text = await response.text();
      const parsed: unknown = text ? parseJson(text) : undefined;
      if (response.ok) return this.remember(parsed, response.headers.get('etag')) as T;

      const retryable =
        response.status === 429 ||
        (response.status === 503 && repeatable) ||
        (response.status === 409 && idempotencyKey !== null && retry > 1);
      const waited = retryable ? retryAfter(response.status, retryAfterMs(response.headers) ?? backoff(retry)) : null;
      if (!waited) throw ApiError.from(response.status, parsed, response.headers.get('x-request-id'));
      await waited;
    }
  }

  /** The ETag the read that returned `resource` answered with, if it had one. */
  etagOf(resource: object): string | undefined {
    return this.etags.get(resource);
  }

  /** A GET of one resource answers `{"<name>": {...}}` with its ETag: the representation keeps it. */
  private remember(body: unknown, etag: string | null): unknown {
    const values = typeof body === 'object' && body !== null ? Object.values(body) : [];
    if (etag && values.length === 1 && typeof values[0] === 'object' && values[0] !== null) this.etags.set(values[0], etag);
    return body;
  }
}

function backoff(retry: number): number {
  return BACKOFF_MS * 2 ** (retry - 1);
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date. */
function retryAfterMs(headers: Headers): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}
