/**
 * The scenarios that need apps the main stack does without: the application form, and the
 * webhooks service delivering to a receiver. Each runs on a stack of its own, started once the
 * main scenarios are done and that stack is stopped, so that these apps' background work (the
 * webhooks service's consumers, a relay's passes over a busier outbox) never shows in the main
 * scenarios' numbers, nor one side scenario's in the other's.
 */
import autocannon from 'autocannon';
import { driveHttp, Measurement } from './measure';
import { Deliveries } from './report';
import { createProperty, jsonPost, PROPERTY_BODY } from './scenarios';
import { ExtraApps, Target } from './target';
import { WebhookReceiver } from './webhook-receiver';

export const FORM_SUBMISSION = 'form-submission';
export const EVENT_PUBLISH = 'event-publish';

/** What one run of a side scenario measured, with what it reports beside the usual numbers. */
export type SideMeasurement = Measurement & { deliveries?: Deliveries };

/** A side scenario's load, once what it needs on its stack is in place. */
export interface PreparedLoad {
  /** One run (a warmup or a measured run). */
  drive(connections: number, durationS: number): Promise<SideMeasurement>;
  stop(): Promise<void>;
}

export interface SideScenario {
  name: string;
  description: string;
  /** What its stack runs beside the gateway and the two services. */
  apps: ExtraApps;
  prepare(target: Target): Promise<PreparedLoad>;
}

/** Longest the event-publish scenario waits, after a run, for the receiver to get every event. */
const CATCH_UP_DEADLINE_MS = 60_000;

/** Where a form page carries its CSRF token (base64url and dots: nothing escaped). */
const CSRF_FIELD = /name="csrf_token" value="([^"]+)"/;

/** Step 1 of the form, as an applicant fills it in. */
const CONTACT = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-1234' };

/** What a connection keeps from a form page for the POST after it (autocannon clears it each pass). */
interface FormContext {
  csrf?: string;
}

export function sideScenarios(): SideScenario[] {
  return [formSubmission(), eventPublish()];
}

/**
 * An applicant on the online form: GET a property's form page, then POST step 1 with the page's
 * CSRF token, which creates the application and answers 303 to step 2. Each token is taken once,
 * so every unit is a new submission; the unit is the pair, its latency the sum of both.
 */
function formSubmission(): SideScenario {
  return {
    name: FORM_SUBMISSION,
    description:
      'GET a property’s form page, then POST step 1 with its CSRF token: an application created, 303 (one unit, latency of both)',
    apps: { form: true },
    prepare: async (target) => {
      if (!target.formUrl) throw new Error(`${FORM_SUBMISSION} needs the form, which this target does not run`);
      const path = `/properties/${await createProperty(target)}/apply`;
      return {
        drive: (connections, durationS) =>
          driveHttp({
            url: target.formUrl!,
            connections,
            durationS,
            requests: submission(path),
            alsoSucceeded: [303],
            sequenceIsUnit: true,
          }),
        stop: async () => {},
      };
    },
  };
}

/** The form page at `path`, then its POST with the token the page carried (none if it carried none: a 403). */
function submission(path: string): autocannon.Request[] {
  return [
    {
      method: 'GET',
      path,
      onResponse: (_status, html, context) => {
        (context as FormContext).csrf = CSRF_FIELD.exec(html)?.[1] ?? '';
      },
    },
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (request, context) => ({
        ...request,
        body: new URLSearchParams({ ...CONTACT, csrf_token: (context as FormContext).csrf ?? '' }).toString(),
      }),
    },
  ];
}

/**
 * Creates properties with a webhook subscribed to `property.created`: each create writes an event
 * to the outbox, which the properties service's relay publishes and the webhooks service delivers
 * (signed, its attempt stored) to a receiver the bench runs. After each run (the warmup included)
 * it waits, woken by the deliveries, until the receiver has the event of every create the run
 * counted, so that a measured run starts with (almost: a create under way when a run stops is not
 * awaited) nothing in flight and its CPU time covers delivering what it published.
 */
function eventPublish(): SideScenario {
  return {
    name: EVENT_PUBLISH,
    description:
      'POST /api/v2/properties with a webhook on property.created: each create publishes an event delivered to a receiver on 127.0.0.1',
    apps: { webhooks: true, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } },
    prepare: async (target) => {
      const receiver = await WebhookReceiver.start();
      try {
        await subscribe(target, receiver.url, ['property.created']);
      } catch (error) {
        await receiver.stop();
        throw error;
      }
      const drive = async (connections: number, durationS: number): Promise<SideMeasurement> => {
        const created: number[] = [];
        const measurement = await driveHttp({
          url: target.url,
          connections,
          durationS,
          headers: { authorization: `Bearer ${target.apiKey}` },
          requests: [{ ...jsonPost(PROPERTY_BODY), path: '/api/v2/properties', onResponse: collectId(created) }],
        });
        const duringRun = receiver.deliveredOf(created);
        const catchUpMs = await receiver.until(created, CATCH_UP_DEADLINE_MS);
        const total = receiver.deliveredOf(created);
        return { ...measurement, deliveries: { published: created.length, duringRun, total, catchUpMs } };
      };
      return { drive, stop: () => receiver.stop() };
    },
  };
}

/** An onResponse that keeps the id of each property created (each one's event is awaited). */
function collectId(ids: number[]): autocannon.Request['onResponse'] {
  return (status, body) => {
    if (status === 201) ids.push((JSON.parse(body) as { property: { id: number } }).property.id);
  };
}

/** Subscribes a webhook through the gateway, as an integrator would. */
async function subscribe(target: Target, url: string, events: string[]): Promise<void> {
  const answer = await fetch(`${target.url}/api/v2/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: { url, events } }),
  });
  if (answer.status !== 201) throw new Error(`subscribing a webhook answered ${answer.status}: ${await answer.text()}`);
}
