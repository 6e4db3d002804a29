import { DEFAULT_PERSONAL_DATA_DAYS, RETENTION_SHORTENING_DELAY_DAYS } from '@app/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A client's retention period as stored: the days last asked for, and, while a shortening waits,
 * the days in effect until `effective_at`. Records kept before shortenings waited have neither of
 * the two: their days are in effect. A field null or absent is the default.
 */
export interface StoredRetention {
  personal_data_days?: number | null;
  previous_personal_data_days?: number | null;
  effective_at?: Date;
}

/** The days in effect as of `now`: the sweep erases by these. */
export function retentionInEffect(stored: StoredRetention | null, now: number): number {
  if (stored?.effective_at && stored.effective_at.getTime() > now) {
    return stored.previous_personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS;
  }
  return stored?.personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS;
}

/** The shortening that waits as of `now`, or null. */
export function pendingRetention(stored: StoredRetention | null, now: number): { days: number; effectiveAt: Date } | null {
  if (!stored?.effective_at || stored.effective_at.getTime() <= now) return null;
  return { days: stored.personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS, effectiveAt: stored.effective_at };
}

/**
 * What to store when `days` (null: the default) are asked for at `now`: as many days as those in
 * effect or more apply at once; fewer wait RETENTION_SHORTENING_DELAY_DAYS, unless `confirmed`,
 * and meanwhile those in effect stay. A request replaces a shortening that waits.
 */
export function changedRetention(
  stored: StoredRetention | null,
  days: number | null,
  confirmed: boolean,
  now: number,
): Required<StoredRetention> {
  const before = retentionInEffect(stored, now);
  const after = days ?? DEFAULT_PERSONAL_DATA_DAYS;
  const waits = after < before && !confirmed;
  return {
    personal_data_days: days,
    previous_personal_data_days: before,
    effective_at: new Date(waits ? now + RETENTION_SHORTENING_DELAY_DAYS * DAY_MS : now),
  };
}
