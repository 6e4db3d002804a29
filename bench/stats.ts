/** The bench's arithmetic on samples, shared by the load driver, the reports and the probes. */

/** `value` to two decimals: what every number the bench prints is rounded to. */
export function hundredths(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The middle value, or the mean of the two middle ones; `values` is left unsorted. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
