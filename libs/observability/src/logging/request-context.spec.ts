import pino from 'pino';
import { Store, storage } from 'nestjs-pino/storage';
import { currentDeadline, withDeadline } from '@app/contracts';
import {
  currentRequestId,
  REQUEST_ID_HEADER,
  requestIdFrom,
  requestIdHeaders,
  requestIdLogField,
  withRequestId,
} from './request-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it.each(['abc', 'e2e-7ac763d9', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'a.b_c:d', 'x'.repeat(128)])(
    'keeps the id %s',
    (id) => {
      expect(requestIdFrom(id)).toBe(id);
    },
  );

  it.each([
    ['a missing header', undefined],
    ['an empty one', ''],
    ['one with spaces', 'a b'],
    ['one with a line break', 'abc\ninjected'],
    ['one of 129 characters', 'x'.repeat(129)],
    ['a repeated header', ['a', 'b']],
    ['one with quotes', 'a"b'],
  ])('makes up a new id for %s', (_case, candidate) => {
    expect(requestIdFrom(candidate)).toMatch(UUID);
  });

  it('makes up a different id each time', () => {
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});

describe('the current request', () => {
  it('is known to everything the work starts, through awaits and timers', async () => {
    const seen = await withRequestId('outer-1', async () => {
      await Promise.resolve();
      const later = await new Promise<string | undefined>((resolve) => setTimeout(() => resolve(currentRequestId()), 1));
      return [currentRequestId(), later, requestIdHeaders()];
    });
    expect(seen).toEqual(['outer-1', 'outer-1', { [REQUEST_ID_HEADER]: 'outer-1' }]);
  });

  it('keeps concurrent requests apart', async () => {
    const ids = await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        withRequestId(id, async () => {
          await new Promise((resolve) => setTimeout(resolve, 3 - id.charCodeAt(0) + 97));
          return currentRequestId();
        }),
      ),
    );
    expect(ids).toEqual(['a', 'b', 'c']);
  });

  it('is unknown outside a request, where no header is sent', () => {
    expect(currentRequestId()).toBeUndefined();
    expect(requestIdHeaders()).toEqual({});
  });
});

describe('requestIdLogField', () => {
  it('names the request for a line logged while a message is handled, where no logger has the id bound', () => {
    expect(withRequestId('message-1', requestIdLogField)).toEqual({ request_id: 'message-1' });
  });

  it('adds nothing where the request’s own logger has the id bound already, nor outside a request', () => {
    const bound = new Store(pino({ enabled: false }).child({ request_id: 'http-1' }));
    expect(withRequestId('http-1', () => storage.run(bound, requestIdLogField))).toEqual({});
    expect(requestIdLogField()).toEqual({});
  });

  it('shares one scope with the deadline: each keeps the other’s value', () => {
    const seen = withDeadline(1234, () => withRequestId('both', () => [currentRequestId(), currentDeadline()]));
    expect(seen).toEqual(['both', 1234]);
    expect(withRequestId('outer', () => withDeadline(99, currentRequestId))).toBe('outer');
  });
});
