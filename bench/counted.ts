/**
 * What one request costs in messages and database commands, counted rather than timed: requests
 * sent one at a time to a stack of their own started with DB_COMMAND_METRICS=true (the counting
 * costs CPU, so never on a stack whose CPU is measured), every process's /metrics read before and
 * after. Each count is taken from the services' own counters, which this tree and the baseline's
 * both keep:
 *
 * - database commands: `db_commands_total`, summed over the processes;
 * - broker messages: each request a process sent to another (`rpc_duration_seconds_count`, kept
 *   by the one helper every request goes through) is two messages, the request and its answer, as
 *   issue 50 counted them (its 6 per create: the create's request and two property lookups);
 * - events: each event the relays published (`events_relayed_total{outcome="published"}`),
 *   counted apart;
 * - service calls of the form: the form's own `rpc_duration_seconds_count`.
 *
 * Background work goes on meanwhile (the relays' passes over their outboxes, the gateway's
 * readiness pings): the pings' requests and the driver's housekeeping commands are left out,
 * and what the stack does idle over the same time, measured just before, is taken off.
 */
import { applicationBody, createProperty } from './scenarios';
import { Target } from './target';
import { csrfOf, saveStep } from '../tools/form-client';

/** Requests of each kind sent one after another: enough that a stray pass of a relay weighs little. */
export const COUNTED_REQUESTS = 50;
/** How long the stack is watched idle, to take its background work off the counts. */
const IDLE_MS = 3000;
/** How long after the last request its asynchronous work (an event relayed) is waited for. */
const SETTLE_MS = 1500;

/** Commands a driver sends to keep its connections, whatever the requests. */
const HOUSEKEEPING = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'saslStart', 'saslContinue', 'endSessions', 'buildInfo']);

export interface Counts {
  dbCommandsPerCreate: number | null;
  brokerMessagesPerCreate: number | null;
  /** Events the relays published for one create (broker messages too, counted apart). */
  eventsPerCreate: number | null;
  /** The POST of a form section step and the GET of the page it redirects to. */
  dbCommandsPerSectionSave: number | null;
  /** Requests the form sent to the services for the POST of one section step. */
  serviceCallsPerFormStep: number | null;
}

/** The totals the counts are made of, at one moment. */
interface Totals {
  dbCommands: number;
  brokerMessages: number;
  events: number;
  formServiceCalls: number;
}

const SERIES = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)$/gm;
const LABEL = /(\w+)="([^"]*)"/g;

/** The totals in one process's metrics text. */
export function totalsOf(app: string, metrics: string): Totals {
  const totals: Totals = { dbCommands: 0, brokerMessages: 0, events: 0, formServiceCalls: 0 };
  for (const [, name, labelText = '', text] of metrics.matchAll(SERIES)) {
    const labels = Object.fromEntries([...labelText.matchAll(LABEL)].map(([, key, value]) => [key, value]));
    const value = Number(text);
    if (name === 'db_commands_total' && !HOUSEKEEPING.has(labels.command)) totals.dbCommands += value;
    if (name === 'rpc_duration_seconds_count' && !labels.pattern?.endsWith('.ping')) {
      totals.brokerMessages += 2 * value;
      if (app === 'form') totals.formServiceCalls += value;
    }
    if (name === 'events_relayed_total' && labels.outcome === 'published') totals.events += value;
  }
  return totals;
}

async function totalsNow(target: Target): Promise<Totals> {
  const sum: Totals = { dbCommands: 0, brokerMessages: 0, events: 0, formServiceCalls: 0 };
  for (const { app, url } of target.metrics) {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    const totals = totalsOf(app, await answer.text());
    for (const key of Object.keys(sum) as Array<keyof Totals>) sum[key] += totals[key];
  }
  return sum;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What `count` runs of `work` added to the totals, once their asynchronous work settled, less
 * what the stack does idle in as long (`idlePerMs`).
 */
async function countedWork(target: Target, idlePerMs: Totals, count: number, work: () => Promise<void>): Promise<Totals> {
  const before = await totalsNow(target);
  const started = Date.now();
  for (let i = 0; i < count; i++) await work();
  await sleep(SETTLE_MS);
  const elapsedMs = Date.now() - started;
  const after = await totalsNow(target);
  const added = {} as Totals;
  for (const key of Object.keys(before) as Array<keyof Totals>) {
    added[key] = after[key] - before[key] - idlePerMs[key] * elapsedMs;
  }
  return added;
}

const perRequest = (value: number, count: number) => Math.round((100 * value) / count) / 100;

/** The counts of a create and, when the target runs the form, of a form section step. */
export async function countPerRequest(target: Target, count = COUNTED_REQUESTS): Promise<Counts> {
  const propertyId = await createProperty(target);
  const idleBefore = await totalsNow(target);
  await sleep(IDLE_MS);
  const idleAfter = await totalsNow(target);
  const idlePerMs = {} as Totals;
  for (const key of Object.keys(idleBefore) as Array<keyof Totals>) {
    idlePerMs[key] = Math.max(0, idleAfter[key] - idleBefore[key]) / IDLE_MS;
  }
  const creates = await countedWork(target, idlePerMs, count, async () => {
    const answer = await fetch(`${target.url}/api/v2/applications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(applicationBody(propertyId)),
    });
    if (answer.status !== 201) throw new Error(`a counted create answered ${answer.status}: ${await answer.text()}`);
  });
  const counts: Counts = {
    dbCommandsPerCreate: perRequest(creates.dbCommands, count),
    brokerMessagesPerCreate: perRequest(creates.brokerMessages, count),
    eventsPerCreate: perRequest(creates.events, count),
    dbCommandsPerSectionSave: null,
    serviceCallsPerFormStep: null,
  };
  if (!target.formUrl) return counts;
  return { ...counts, ...(await countSectionSaves(target, target.formUrl, propertyId, idlePerMs, count)) };
}

/** Step 1 of the form on `propertyId`'s page, as an applicant starts it; the applicant's form token. */
async function startApplicant(formUrl: string, propertyId: number): Promise<string> {
  const url = `${formUrl}/properties/${propertyId}/apply`;
  const page = await fetch(url);
  const started = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf_token: csrfOf(await page.text()),
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    }),
  });
  const token = /\/applicants\/([^/?]+)/.exec(started.headers.get('location') ?? '')?.[1];
  if (started.status !== 303 || !token) throw new Error(`step 1 of the form answered ${started.status}`);
  return token;
}

/**
 * The identity step saved again and again: each save needs its page's CSRF token, so a save is
 * the page, the POST and the page it redirects to, and what the page alone costs (counted on
 * its own) is taken off; so is, for the form's service calls, the page it redirects to.
 */
async function countSectionSaves(
  target: Target,
  formUrl: string,
  propertyId: number,
  idlePerMs: Totals,
  count: number,
): Promise<Pick<Counts, 'dbCommandsPerSectionSave' | 'serviceCallsPerFormStep'>> {
  const token = await startApplicant(formUrl, propertyId);
  // The unit's step comes first; a property with one floor plan offers it on the page, chosen.
  const details = await (await fetch(`${formUrl}/applicants/${token}/details`)).text();
  const floorPlan = /name="floor_plan_id" value="([^"]+)"/.exec(details)?.[1];
  await saveStep(formUrl, token, 'details', {
    desired_move_in: '2027-03-01',
    ...(floorPlan ? { floor_plan_id: floorPlan } : {}),
  });
  const identity = `${formUrl}/applicants/${token}/identity`;
  const fields = { middle_name: 'Byron', dob: '1985-12-10', id_number: '123-45-6789' };
  const page = async (url: string) => {
    const answer = await fetch(url, { redirect: 'manual' });
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    return answer.text();
  };
  let next = '';
  const saves = await countedWork(target, idlePerMs, count, async () => {
    const saved = await fetch(identity, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, csrf_token: csrfOf(await page(identity)) }),
    });
    const location = saved.headers.get('location');
    if (saved.status !== 303 || !location) throw new Error(`saving the identity step answered ${saved.status}`);
    next = new URL(location, formUrl).href;
    await page(next);
  });
  const identityPages = await countedWork(target, idlePerMs, count, async () => void (await page(identity)));
  const nextPages = await countedWork(target, idlePerMs, count, async () => void (await page(next)));
  return {
    dbCommandsPerSectionSave: perRequest(saves.dbCommands - identityPages.dbCommands, count),
    serviceCallsPerFormStep: perRequest(
      saves.formServiceCalls - identityPages.formServiceCalls - nextPages.formServiceCalls,
      count,
    ),
  };
}
