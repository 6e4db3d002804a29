import { MAX_LISTED_ATTEMPTS } from '@app/contracts';
import { AttemptRecord, DeliveryRecord, toDeliveryRepresentation } from './delivery-store';

describe('toDeliveryRepresentation', () => {
  const delivery: DeliveryRecord = {
    _id: '1:evt_a',
    subscription_id: 1,
    client_id: 1,
    body: { id: 'evt_a', event: 'property.created', test_mode: false, created_at: '2026-11-25T10:00:00+00:00', data: {} },
    status: 'failed',
    next_attempt_at: null,
    created_at: new Date('2026-11-25T10:00:00Z'),
  };
  const attempt = (n: number): AttemptRecord => ({
    _id: `1:evt_a:${n}:00`,
    delivery_key: delivery._id,
    subscription_id: 1,
    number: n,
    attempted_at: new Date(Date.UTC(2026, 10, 25, 10, 0, n)),
    success: false,
    response_status: 500,
    error: null,
    duration_ms: 3,
  });

  it('lists the latest attempts only, numbered as among all of them, oldest first', () => {
    const count = MAX_LISTED_ATTEMPTS + 7;
    // Stored in no particular order: the numbers follow the attempts' times.
    const attempts = Array.from({ length: count }, (_, i) => attempt(i + 1)).reverse();
    const listed = toDeliveryRepresentation(delivery, attempts).attempts;
    expect(listed).toHaveLength(MAX_LISTED_ATTEMPTS);
    expect(listed.map((a) => a.number)).toEqual(Array.from({ length: MAX_LISTED_ATTEMPTS }, (_, i) => i + 8));
    expect(listed[0].attempted_at).toBe('2026-11-25T10:00:08+00:00');
  });

  it('lists every attempt of a delivery with few', () => {
    expect(toDeliveryRepresentation(delivery, [attempt(2), attempt(1)]).attempts.map((a) => a.number)).toEqual([1, 2]);
  });
});
