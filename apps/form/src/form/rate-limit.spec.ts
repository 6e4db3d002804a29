import { SubmissionRateLimit } from './rate-limit';

describe('SubmissionRateLimit', () => {
  it('lets each address submit its limit per minute, then refuses it until the minute is over', () => {
    let now = 1_000_000;
    const limit = new SubmissionRateLimit(3, () => now);
    expect([1, 2, 3, 4].map(() => limit.allow('10.0.0.1'))).toEqual([true, true, true, false]);
    expect(limit.allow('10.0.0.2')).toBe(true);
    now += 20_000;
    expect(limit.retryAfterSeconds('10.0.0.1')).toBe(40);
    expect(limit.allow('10.0.0.1')).toBe(false);
    now += 40_000;
    expect(limit.allow('10.0.0.1')).toBe(true);
  });
});
