/** One sample of a Prometheus text exposition: `name{label="value",...} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line.trim());
    if (!match || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample named `name` whose labels include `labels`; 0 when there is none. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return found?.value ?? 0;
}

/** What GET /metrics at `baseUrl` answers, parsed. */
export async function scrape(baseUrl: string): Promise<Sample[]> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${response.status}`);
  return parseExposition(await response.text());
}
