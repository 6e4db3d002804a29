import http from 'node:http';
import https from 'node:https';
import { LookupFunction } from 'node:net';
import { resolveTarget, TargetRefused } from './target-guard';

/** An attempt not answered within this long failed. */
export const ATTEMPT_TIMEOUT_MS = 10000;
/** What is read of a receiver's answer at most; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptOutcome {
  success: boolean;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * POSTs one signed body, never following a redirect (a 3xx is a failure like any non-2xx),
 * connecting only to the address the guard checked, giving up after 10 s and reading at most
 * 64 KiB of the answer.
 */
export async function sendWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
): Promise<AttemptOutcome> {
  const started = Date.now();
  const outcome = (status: number | null, error: string | null): AttemptOutcome => ({
    success: status !== null && status >= 200 && status < 300,
    response_status: status,
    error,
    duration_ms: Date.now() - started,
  });
  let resolved;
  try {
    resolved = await resolveTarget(target, allowPrivate);
  } catch (error) {
    return outcome(null, error instanceof TargetRefused ? `refused: URL ${error.message}` : String(error));
  }
  const { url, address, family } = resolved;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(outcome(status, error));
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'rental-applications-webhooks',
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_RESPONSE_BYTES) finish(response.statusCode ?? null, null);
        });
        response.on('end', () => finish(response.statusCode ?? null, null));
        response.on('error', () => finish(response.statusCode ?? null, null));
      },
    );
    const deadline = setTimeout(() => finish(null, `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`), ATTEMPT_TIMEOUT_MS);
    request.on('error', (error) => finish(null, error.message));
    request.end(body);
  });
}
