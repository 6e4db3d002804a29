import { requestExchange, requestQueueOf } from './rmq-options';

describe('requestQueueOf', () => {
  it('names the queue a request came to, whether through its request exchange or straight to it', () => {
    // Through the exchange, the routing key is the message's pattern, not the queue.
    expect(requestQueueOf({ exchange: requestExchange('t1_applications'), routingKey: 'applications.create' })).toBe(
      't1_applications',
    );
    expect(requestQueueOf({ exchange: '', routingKey: 't1_applications' })).toBe('t1_applications');
    expect(requestQueueOf(undefined)).toBe('unknown');
  });
});
