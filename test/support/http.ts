import { KEYS } from '../../tools/stack';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON-encoding `body`. */
  raw?: string;
}

/** An HTTP client for the gateway under test: JSON in, JSON out, client one's key by default. */
export function api(baseUrl: string) {
  const call = async (method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? KEYS.clientOne : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  return {
    post: (path: string, body?: unknown, options?: RequestOptions) => call('POST', path, body, options),
    get: (path: string, options?: RequestOptions) => call('GET', path, undefined, options),
    patch: (path: string, body?: unknown, options?: RequestOptions) => call('PATCH', path, body, options),
    delete: (path: string, options?: RequestOptions) => call('DELETE', path, undefined, options),
    call,
  };
}

export type Api = ReturnType<typeof api>;

/** The documented error body, whatever the status. */
export function expectErrorBody(answer: Answer, message?: string | RegExp): void {
  expect(Object.keys(answer.body ?? {})).toEqual(['error']);
  expect(Object.keys(answer.body.error)).toEqual(['message', 'details']);
  expect(typeof answer.body.error.message).toBe('string');
  if (message !== undefined) expect(answer.body.error.message).toMatch(message);
  expect(answer.text).not.toMatch(/\bat .+\.(js|ts):\d+/);
}
