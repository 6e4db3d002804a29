import { ServerRMQ } from '@nestjs/microservices';
import { ReliableServerRMQ } from './reliable-server';
import { rmqServerOptions } from './rmq-options';
import { Settlement } from './settlement';

const settings = rmqServerOptions({ url: 'amqp://localhost', queue: 'q', prefetch: 1, consumerTag: 't' });

/** The protected route lookup of each server, as the transport calls it for every message. */
const routeOf = (server: ServerRMQ, pattern: string): string =>
  (server as unknown as { getRouteFromPattern(pattern: string): string }).getRouteFromPattern(pattern);

describe('ReliableServerRMQ routes', () => {
  const reliable = new ReliableServerRMQ(settings, new Settlement());
  const nest = new ServerRMQ(settings);

  it.each([
    'properties.get',
    'applications.create',
    '{"cmd":"sum","a":1}',
    '{"b":1,"a":2}',
    '"properties.get"',
    '["x"]',
    '42',
    'null',
    'true',
    ' properties.get',
    '{not json',
    '',
  ])('the pattern %j as Nest does', (pattern) => {
    expect(routeOf(reliable, pattern)).toEqual(routeOf(nest, pattern));
  });

  it('takes a plain pattern as it is, without trying it as JSON', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(routeOf(reliable, 'properties.lookup')).toBe('properties.lookup');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});
