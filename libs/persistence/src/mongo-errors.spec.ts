import { MongoBulkWriteError, MongoNetworkError, MongoOperationTimeoutError, MongoServerError } from 'mongodb';
import { isDatabaseUnavailable, isDuplicateKey } from './mongo-errors';

const serverError = (code: number, errmsg: string, errorLabels: string[] = []) =>
  new MongoServerError({ ok: 0, code, errmsg, errorLabels });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['FerretDB cutting an operation at its time limit (SQLite)', serverError(1, 'interrupted')],
    ['FerretDB cutting an operation at its time limit (Go)', serverError(1, 'context deadline exceeded')],
    ['MongoDB cutting an operation at its time limit', serverError(50, 'operation exceeded time limit')],
    ['an interrupted operation', serverError(11601, 'operation was interrupted')],
    ['a server shutting down', serverError(91, 'The server is in quiesce mode and will shut down')],
    ['an error the server labels retryable', serverError(123, 'whatever', ['RetryableWriteError'])],
    ['the driver cutting an operation at its time limit', new MongoOperationTimeoutError('Timed out during socket read (0ms)')],
    ['a network failure', new MongoNetworkError('connection reset')],
    [
      'an insertMany whose connection timed out',
      new MongoBulkWriteError(new MongoOperationTimeoutError('Timed out during socket read (2022ms)'), {} as never),
    ],
  ])('is true for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a duplicate key', serverError(11000, 'E11000 duplicate key error')],
    [
      'an insertMany that met a duplicate key',
      new MongoBulkWriteError({ message: 'E11000', code: 11000, writeErrors: [] }, {} as never),
    ],
    ['another internal error', serverError(1, 'unexpected state')],
    ['a bad command', serverError(2, 'BadValue')],
    ['a programming error', new TypeError('cannot read properties of undefined')],
    ['a thrown string', 'interrupted'],
  ])('is false for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('leaves duplicate keys to isDuplicateKey', () => {
    expect(isDuplicateKey(serverError(11000, 'E11000 duplicate key error'))).toBe(true);
  });
});
