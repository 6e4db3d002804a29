/** The day a daily cap counts in, and when the places taken in it expire. */

const DAY_MS = 24 * 3600 * 1000;

/** The UTC day of `at`, as YYYY-MM-DD: a daily cap's places are the day's. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC hour of `at`, as YYYY-MM-DDTHH: an hourly cap's places are the hour's. */
export function utcHour(at: Date): string {
  return at.toISOString().slice(0, 13);
}

/** When the places of `day`'s caps expire: a day after it ends. */
export function placesExpireAt(day: string): Date {
  return new Date(Date.parse(day) + 2 * DAY_MS);
}
