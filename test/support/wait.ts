/**
 * Resolves with the first truthy value `check` returns, checking every `intervalMs` until
 * `timeoutMs` has passed; then rejects saying what was awaited. For conditions that come true
 * in another process (a log line written, a listener back), never as a pause.
 */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 10000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
