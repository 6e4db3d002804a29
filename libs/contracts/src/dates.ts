const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads `MM/DD/YYYY` (the documented example) or `YYYY-MM-DD` and returns `YYYY-MM-DD`,
 * or null when the text is neither or names no calendar day (`02/30/2024`).
 */
export function parseCalendarDate(text: string): string | null {
  let year: number;
  let month: number;
  let day: number;
  const us = US_DATE.exec(text);
  const iso = us ? null : ISO_DATE.exec(text);
  if (us) {
    [month, day, year] = [Number(us[1]), Number(us[2]), Number(us[3])];
  } else if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    return null;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  const last = new Date(Date.UTC(2000, month, 0));
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return last.getUTCDate();
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Today's date in UTC as `YYYY-MM-DD`; ISO dates compare correctly as strings. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** ISO 8601, seconds precision, numeric offset: `2026-11-22T14:03:09+00:00`. */
export function formatTimestamp(at: Date): string {
  return `${at.toISOString().slice(0, 19)}+00:00`;
}
