/** What MongoDB and FerretDB answer alike when an insert meets a unique index. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === 11000;
}

/** Resolves true once `insert` stored its document, false if the key was taken; rethrows the rest. */
export function claimed(insert: Promise<unknown>): Promise<boolean> {
  return insert.then(
    () => true,
    (error: unknown) => {
      if (isDuplicateKey(error)) return false;
      throw error;
    },
  );
}

/** For `createCollection().catch(...)`: a collection that exists already is what was wanted. */
export function ignoreExistingCollection(error: { codeName?: string; code?: number }): void {
  if (error.code === 48 || error.codeName === 'NamespaceExists') return;
  throw error;
}

/** Driver errors that say the server is out of reach, or an operation was cut at its time limit. */
const UNAVAILABLE_NAMES = /^Mongo(ServerSelection|Network|NotConnected|Topology|OperationTimeout|PoolCleared|ServerClosed)/;

/**
 * Server codes that say "not now" rather than "never": a time limit (maxTimeMS) expired, the
 * operation was interrupted, or the server is stepping down or shutting down. The same request
 * may succeed a moment later, so the caller is told 503 with Retry-After.
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11601, // Interrupted
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/** Labels the server or the driver puts on errors worth the same request again. */
const UNAVAILABLE_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'ResetPool', 'SystemOverloadedError'];

/**
 * FerretDB answers an operation cut at its time limit (the `maxTimeMS` the driver sends from
 * `timeoutMS`) with code 1, InternalError, about half the time (SQLite's "interrupted", or Go's
 * "context deadline exceeded"), where MongoDB answers 50; any other code 1 stays unexpected.
 */
const INTERRUPTED = /interrupted|deadline exceeded|context canceled/i;

interface DriverError {
  name?: string;
  code?: unknown;
  message?: string;
  errorLabels?: unknown;
}

/**
 * A database out of reach, or an operation of it cut at its time limit: what the caller hears
 * as 503 with Retry-After, the message acknowledged (handing it back would only wait again).
 * Anything else from the database is unexpected.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // An insertMany or bulkWrite that failed as a whole (its connection timed out or was lost, as
  // across a partition) throws a MongoBulkWriteError that holds the driver's error as its response.
  const { errorResponse } = error as { errorResponse?: unknown };
  if (errorResponse instanceof Error && errorResponse !== error) return isDatabaseUnavailable(errorResponse);
  const { name, code, message, errorLabels } = error as DriverError;
  if (name && UNAVAILABLE_NAMES.test(name)) return true;
  if (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) return true;
  if (code === 1 && INTERRUPTED.test(message ?? '')) return true;
  const labels = Array.isArray(errorLabels) ? (errorLabels as string[]) : [];
  return UNAVAILABLE_LABELS.some((label) => labels.includes(label));
}
