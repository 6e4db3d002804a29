import { DEFAULT_PERSONAL_DATA_DAYS, RETENTION_SHORTENING_DELAY_DAYS } from '@app/contracts';
import { changedRetention, pendingRetention, retentionInEffect } from './retention-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-25T12:00:00Z');
const DELAY_MS = RETENTION_SHORTENING_DELAY_DAYS * DAY_MS;

describe('retention settings', () => {
  it('are the default when none were set, and the days stored before shortenings waited', () => {
    expect(retentionInEffect(null, NOW)).toBe(DEFAULT_PERSONAL_DATA_DAYS);
    expect(retentionInEffect({ personal_data_days: 90 }, NOW)).toBe(90);
    expect(retentionInEffect({ personal_data_days: null }, NOW)).toBe(DEFAULT_PERSONAL_DATA_DAYS);
    expect(pendingRetention({ personal_data_days: 90 }, NOW)).toBeNull();
  });

  it('lengthen at once', () => {
    const stored = changedRetention({ personal_data_days: 90 }, 365, false, NOW);
    expect(stored).toEqual({ personal_data_days: 365, previous_personal_data_days: 90, effective_at: new Date(NOW) });
    expect(retentionInEffect(stored, NOW)).toBe(365);
    expect(pendingRetention(stored, NOW)).toBeNull();
  });

  it('shorten only after the delay, the days in effect kept until then', () => {
    const stored = changedRetention(null, 1, false, NOW);
    expect(retentionInEffect(stored, NOW)).toBe(DEFAULT_PERSONAL_DATA_DAYS);
    expect(retentionInEffect(stored, NOW + DELAY_MS - 1)).toBe(DEFAULT_PERSONAL_DATA_DAYS);
    expect(pendingRetention(stored, NOW)).toEqual({ days: 1, effectiveAt: new Date(NOW + DELAY_MS) });
    expect(retentionInEffect(stored, NOW + DELAY_MS)).toBe(1);
    expect(pendingRetention(stored, NOW + DELAY_MS)).toBeNull();
  });

  it('shorten at once when confirmed', () => {
    const stored = changedRetention({ personal_data_days: 90 }, 1, true, NOW);
    expect(retentionInEffect(stored, NOW)).toBe(1);
    expect(pendingRetention(stored, NOW)).toBeNull();
  });

  it('let a later request replace a shortening that waits, from the days in effect', () => {
    const waiting = changedRetention({ personal_data_days: 90 }, 1, false, NOW);
    const undone = changedRetention(waiting, 90, false, NOW + DAY_MS);
    expect(undone.previous_personal_data_days).toBe(90);
    expect(retentionInEffect(undone, NOW + DELAY_MS)).toBe(90);
    expect(pendingRetention(undone, NOW + DAY_MS)).toBeNull();
    const shorter = changedRetention(waiting, 30, false, NOW + DAY_MS);
    expect(retentionInEffect(shorter, NOW + DELAY_MS)).toBe(90);
    expect(retentionInEffect(shorter, NOW + DAY_MS + DELAY_MS)).toBe(30);
  });
});
