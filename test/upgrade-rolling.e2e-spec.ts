import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UPGRADE_ORDER } from '../scripts/apps';
import { readSnapshot } from '../tools/contract-shapes';
import { AppName, freePort, KEYS, ROOT, RunningProcess, Stack } from '../tools/stack';
import { EventTap } from './support/events';
import { csrfOf } from './support/form-documents';
import { api, Api } from './support/http';
import { scrape } from './support/metrics';
import { PREVIOUS_RELEASE_BUILD_MS, previousRelease } from './support/releases';
import { SmtpInbox } from './support/smtp-inbox';
import { RoundRobinBalancer } from './support/tcp-proxy';
import { eventually } from './support/wait';
import { Reply, Visitor } from './support/visitor';
import { WebhookReceiver } from './support/webhook-receiver';

/** Clients at work at once, each going through its rounds one after the other: the load's bound. */
const WORKERS = 3;
/** Rounds finished, by all the workers together, in each phase (both releases of an app, then one). */
const ROUNDS_PER_PHASE = 6;
/** The service rolled back to the previous release once everything is upgraded. */
const ROLLED_BACK = 'applications';
/** Tries of one request answered with a retryable answer (a 503 waits for its deadline first). */
const TRIES = 20;
const RETRY_AFTER_MS = 100;

/** One request of the load, as its client saw it. */
interface Attempt {
  phase: string;
  what: string;
  status: number;
  retryAfter: string | null;
  /** Why it got no answer at all (status 0): refused, reset, closed. */
  failure?: string;
}

/** What one round made, once each of its steps was answered. */
interface Round {
  propertyId: number;
  applicationId: number;
  coApplicantFormUrl: string;
  invitationUrl: string;
  /** The application the form's step 1 made. */
  formApplicationId: number;
}

/**
 * A rolling upgrade and a rollback under load, as Kubernetes runs them: the previous release
 * (test/upgrade/previous-release) and this build side by side on one broker and one database.
 * Every app starts on the previous release; then, in UPGRADE_ORDER (scripts/apps.js, docs/operators/upgrades.md's
 * "Upgrading"), an instance of this build starts beside the old one, both serve for a phase, and
 * the old one leaves (a gateway or a form first out of the balancer's rotation, as a terminating
 * pod leaves its Service's endpoints, then SIGTERM). Last, one service is rolled back the same way.
 *
 * The load, steady and bounded (WORKERS clients, one round at a time each): a property created and
 * read, an invitation e-mailed, an application created and read, a co-applicant e-mailed its
 * link, the form's first three steps at the property's application_url (step 1 starts an
 * application, the identity step seals the SSN to the applications service), that application
 * read through the API, and every event delivered to a webhook. Throughout: nothing answered but
 * the expected answer and the documented retryable ones (503 with Retry-After, 409 for an
 * Idempotency-Key still being worked on), which are retried; at the end, every create read back,
 * every event delivered (at least once, as docs/integrators/webhooks.md promises: a repeat carries the same
 * webhook-id, and none comes a third time), every e-mail sent once, and every dead-letter queue empty.
 */
describe('a rolling upgrade from the previous release, and a rollback, under load', () => {
  let release: { sha: string; root: string };
  let stack: Stack;
  let gateways: RoundRobinBalancer;
  let forms: RoundRobinBalancer;
  let client: Api;
  let inbox: SmtpInbox;
  let receiver: WebhookReceiver;
  let tap: EventTap;
  const attempts: Attempt[] = [];
  const rounds: Round[] = [];
  const failedRounds: string[] = [];
  const phases: string[] = [];
  let phase = 'previous release';
  let running = false;
  let workers: Promise<void>[] = [];
  const runId = randomUUID().slice(0, 8);
  let sequence = 0;

  beforeAll(async () => {
    release = previousRelease();
  }, PREVIOUS_RELEASE_BUILD_MS);

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    receiver = await WebhookReceiver.start();
    gateways = await RoundRobinBalancer.start([]);
    forms = await RoundRobinBalancer.start([]);
    // Every app of the previous release, the form's links through the forms' balancer.
    stack = await Stack.start({
      root: release.root,
      form: true,
      instances: { properties: 1, applications: 1, webhooks: 1, notifications: 1 },
      env: {
        APPLY_BASE_URL: forms.url,
        SMTP_URL: inbox.url,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000',
      },
      startTimeoutMs: 60000,
    });
    gateways.add(Number(stack.process('gateway').env.PORT));
    forms.add(Number(stack.process('form').env.FORM_PORT));
    client = api(gateways.url);
    tap = await EventTap.open(stack.namespace);
    // Every event the previous release knows, to one receiver.
    const subscribed = await client.post('/api/v2/webhooks', {
      webhook: { url: receiver.url, events: readSnapshot(release.sha).events },
    });
    expect(subscribed.status).toBe(201);
  }, 180000);

  afterAll(async () => {
    running = false;
    await Promise.all(workers);
    await tap?.close();
    await stack?.stop();
    await gateways?.stop();
    await forms?.stop();
    await receiver?.down();
    await inbox?.close();
  });

  /**
   * One request, tried again while it is answered retryably; every try recorded. Resolves with
   * the expected answer, or throws with the last one.
   */
  const ask = async (
    what: string,
    expected: number,
    send: () => Promise<Reply>,
    retryable: (status: number) => boolean = (status) => status === 503 || status === 409,
  ): Promise<Reply> => {
    let last = '';
    for (let tries = 0; tries < TRIES; tries++) {
      let reply: Reply | null = null;
      const attempt: Attempt = { phase, what, status: 0, retryAfter: null };
      try {
        reply = await send();
        attempt.status = reply.status;
        attempt.retryAfter = reply.header('retry-after');
      } catch (error) {
        attempt.failure = String((error as Error).cause ?? error);
      }
      attempts.push(attempt);
      if (reply && reply.status === expected) return reply;
      last = `${attempt.status} ${attempt.failure ?? reply?.text.slice(0, 300)}`;
      if (reply && !retryable(reply.status)) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
    }
    throw new Error(`${what}: ${last}`);
  };

  /** A request to the API through the gateways' balancer, as an integrator's client (fetch's pool) sends it. */
  const apiCall = (method: string, path: string, body?: unknown, idempotencyKey?: string) => async (): Promise<Reply> => {
    const response = await fetch(`${gateways.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${KEYS.clientOne}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, header: (name) => response.headers.get(name), text: await response.text() };
  };
  const json = (reply: Reply) => JSON.parse(reply.text) as Record<string, any>;

  /**
   * A page of the form filled in and sent by `visitor`; where it leads. The page is asked again
   * on each try: its CSRF token is good for one submission.
   */
  const formStep = async (visitor: Visitor, what: string, url: string, fields: Record<string, string>): Promise<string> => {
    const sent = await ask(what, 303, async () => {
      const page = await visitor.get(url);
      if (page.status !== 200) return page;
      return visitor.post(url, { ...fields, csrf_token: csrfOf(page.text) });
    });
    return new URL(sent.header('location')!, url).toString();
  };

  const round = async (): Promise<Round> => {
    const n = `${runId}-${sequence++}`;
    const property = json(
      await ask(
        'create a property',
        201,
        apiCall('POST', '/api/v2/properties', { property: { name: `Rolling ${n}`, kind: 'single_family' } }, randomUUID()),
      ),
    ).property;
    const read = json(await ask('read the property', 200, apiCall('GET', `/api/v2/properties/${property.id}`))).property;
    expect({ id: read.id, name: read.name }).toEqual({ id: property.id, name: `Rolling ${n}` });

    // An invitation takes no Idempotency-Key: a try answered 503 may have made one too, e-mailed
    // once as well, which the e-mails' check below allows.
    const invitation = json(
      await ask(
        'invite by e-mail',
        201,
        apiCall('POST', `/api/v2/properties/${property.id}/invitations`, {
          invitation: { email: `invited-${n}@example.test`, send_email: true },
        }),
      ),
    ).invitation;

    const applicant = { first_name: 'Ada', last_name: `Rolling ${n}`, email: `ada-${n}@example.test` };
    const application = json(
      await ask(
        'create an application',
        201,
        apiCall('POST', '/api/v2/applications', { application: { property_id: property.id, applicant } }, randomUUID()),
      ),
    ).application;
    const readApplication = json(
      await ask('read the application', 200, apiCall('GET', `/api/v2/applications/${application.id}`)),
    ).application;
    expect(readApplication.applicants.map((a: { name: string }) => a.name)).toEqual([`Ada Rolling ${n}`]);

    const coApplicant = json(
      await ask(
        'add a co-applicant, e-mailed',
        201,
        apiCall(
          'POST',
          `/api/v2/applications/${application.id}/applicants`,
          { applicant: { first_name: 'Bea', last_name: `Rolling ${n}`, email: `bea-${n}@example.test`, send_email: true } },
          randomUUID(),
        ),
      ),
    ).applicant;

    // The form, as an applicant fills it in at the property's application_url, from a browser of its own.
    const visitor = new Visitor();
    try {
      const details = await formStep(visitor, 'form step 1 (contact)', property.application_url, {
        first_name: 'Grace',
        last_name: `Rolling ${n}`,
        email: `grace-${n}@example.test`,
      });
      expect(details).toMatch(/\/applicants\/[^/]+\/details$/);
      const identity = await formStep(visitor, 'form step 2 (details)', details, { desired_move_in: '2027-03-01' });
      expect(identity).toMatch(/\/identity$/);
      await formStep(visitor, 'form step 3 (identity)', identity, {
        middle_name: 'Byron',
        dob: '1990-04-12',
        id_number: '123-45-6789',
      });
    } finally {
      visitor.leave();
    }

    const listed = json(
      await ask('list the applications', 200, apiCall('GET', `/api/v2/applications?property_id=${property.id}`)),
    ).applications as Array<{ id: number; applicants: Array<{ name: string }> }>;
    const started = listed.find((a) => a.applicants[0].name === `Grace Rolling ${n}`);
    expect(started).toBeDefined();
    return {
      propertyId: property.id,
      applicationId: application.id,
      coApplicantFormUrl: coApplicant.form_url,
      invitationUrl: invitation.url,
      formApplicationId: started!.id,
    };
  };

  const work = async () => {
    while (running) {
      try {
        rounds.push(await round());
      } catch (error) {
        failedRounds.push(`${phase}: ${String(error)}`);
      }
    }
  };

  /** Resolves once `count` more rounds have finished (made or failed). */
  const roundsFinish = (count: number) => {
    const target = rounds.length + failedRounds.length + count;
    return eventually(`${count} rounds in phase "${phase}"`, () => rounds.length + failedRounds.length >= target, {
      timeoutMs: 120000,
    });
  };

  /** Where each phase began in what the receiver received. */
  const receivedAt: Array<[number, string]> = [];
  const enter = (name: string) => {
    phase = name;
    receivedAt.push([receiver.received.length, name]);
    phases.push(`${name}: from round ${rounds.length + failedRounds.length}, ${failedRounds.length} failed so far`);
    process.stdout.write(
      `${phases[phases.length - 1]}${failedRounds.length ? `, the last: ${failedRounds[failedRounds.length - 1]}` : ''}\n`,
    );
  };

  /** Everything `process` has done for someone: messages handled, e-mails, requests answered. */
  const served = async (process: RunningProcess): Promise<number> =>
    (await scrape(process.operationsUrl))
      .filter((sample) =>
        ['messages_handled_total', 'notification_events_total', 'http_request_duration_seconds_count'].includes(sample.name),
      )
      .reduce((sum, sample) => sum + sample.value, 0);

  /**
   * Replaces the running instances of `app` by one from `root`: the new one starts and joins the
   * balancer (a gateway, a form), both serve for a phase, then the old ones leave the rotation
   * and are stopped with SIGTERM, and the new one serves alone for a phase.
   */
  const replace = async (app: AppName, root: string, label: string) => {
    const old = stack.running(app);
    const port = String(await freePort());
    const extra: Record<string, string> = app === 'gateway' ? { PORT: port } : app === 'form' ? { FORM_PORT: port } : {};
    const fresh = await stack.startApp(app, extra, root);
    const before = new Map(await Promise.all(old.map(async (instance) => [instance, await served(instance)] as const)));
    const balancer = app === 'gateway' ? gateways : app === 'form' ? forms : null;
    balancer?.add(Number(port));
    enter(`${label}: both`);
    await roundsFinish(ROUNDS_PER_PHASE);
    // Both did work for the load in this phase: the releases really ran side by side.
    for (const instance of [...old, fresh]) {
      const which = instance === fresh ? 'new' : 'old';
      await eventually(
        `${app} (${which}) serving in "${phase}"`,
        async () => (await served(instance)) > (before.get(instance) ?? 0),
        { timeoutMs: 60000 },
      );
    }
    for (const instance of old) {
      balancer?.remove(Number(app === 'gateway' ? instance.env.PORT : instance.env.FORM_PORT));
      const { code } = await stack.signal(instance, 'SIGTERM');
      expect({ app, stopped: code }).toEqual({ app, stopped: 0 });
    }
    enter(`${label}: alone`);
    await roundsFinish(ROUNDS_PER_PHASE);
  };

  it(
    'serves every request, loses nothing and doubles nothing while each app is upgraded in order, then one rolled back',
    async () => {
      running = true;
      workers = Array.from({ length: WORKERS }, () => work());
      enter('previous release');
      await roundsFinish(ROUNDS_PER_PHASE);
      for (const app of UPGRADE_ORDER as AppName[]) await replace(app, ROOT, `upgrade ${app}`);
      await replace(ROLLED_BACK, release.root, `roll back ${ROLLED_BACK}`);
      running = false;
      await Promise.all(workers);
      process.stdout.write(
        `\nrolling upgrade: ${rounds.length} rounds, ${attempts.length} requests, phases:\n  ${phases.join('\n  ')}\n`,
      );

      // Nothing refused beyond the documented retryable answers, no round left unfinished.
      const refused = attempts.filter(
        (a) => ![200, 201, 303].includes(a.status) && !(a.status === 409 || (a.status === 503 && Number(a.retryAfter) > 0)),
      );
      expect(refused).toEqual([]);
      expect(failedRounds).toEqual([]);
      expect(rounds.length).toBeGreaterThanOrEqual(ROUNDS_PER_PHASE * (2 * UPGRADE_ORDER.length + 3));

      // Every accepted create readable, by the release that runs now (the rolled-back service).
      for (const made of rounds) {
        for (const path of [
          `/api/v2/properties/${made.propertyId}`,
          `/api/v2/applications/${made.applicationId}`,
          `/api/v2/applications/${made.formApplicationId}`,
        ]) {
          const answer = await client.get(path);
          expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        }
        // What the form's steps saved, whichever releases of the form and the service met.
        const filled = (await client.get(`/api/v2/applications/${made.formApplicationId}`)).body.application;
        const applicant = (await client.get(new URL(filled.applicants[0].api_url).pathname)).body.applicant;
        expect({ id: made.formApplicationId, moveIn: filled.desired_move_in, identity: applicant.identity }).toEqual({
          id: made.formApplicationId,
          moveIn: '2027-03-01',
          identity: { middle_name: 'Byron', drivers_license_state: null },
        });
      }

      // Every event published delivered once, and those the creates made among them. A release
      // before the webhooks service settled its attempts at a stop (test/drains) hands an attempt
      // under way back to the queue when it is stopped, and another instance sends it once more,
      // with the same webhook-id, which this counts by: from such a previous release, one repeat
      // is allowed; from one that settles them, none.
      const published = () => new Set(tap.received.map((event) => event.id));
      await eventually(
        'every event published delivered',
        () => [...published()].every((id) => receiver.forEvent(id).length > 0),
        { timeoutMs: 60000 },
      );
      const deliveries = new Map<string, number>();
      for (const request of receiver.received) {
        const id = request.headers['webhook-id'];
        deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      }
      const phaseOf = (index: number) => receivedAt.filter(([from]) => from <= index).pop()?.[1];
      const twice = [...deliveries]
        .filter(([, count]) => count !== 1)
        .map(([id]) => ({
          id,
          event: JSON.parse(receiver.forEvent(id)[0].body).event,
          published: tap.received.filter((event) => event.id === id).length,
          received: receiver.received.flatMap((r, index) =>
            r.headers['webhook-id'] === id ? [`${phaseOf(index)} #${index} ts ${r.headers['webhook-timestamp']}`] : [],
          ),
        }));
      expect(twice.filter(({ received }) => received.length > (settlesAtStop(release.root) ? 1 : 2))).toEqual([]);
      expect([...deliveries.keys()].sort()).toEqual([...published()].sort());
      const delivered = receiver.received.map((request) => JSON.parse(request.body) as { event: string; data: any });
      const ids = (event: string, field: string) =>
        delivered.filter((d) => d.event === event).map((d) => d.data[field] as number);
      expect(ids('property.created', 'property_id')).toEqual(expect.arrayContaining(rounds.map((r) => r.propertyId)));
      expect(ids('application.created', 'application_id')).toEqual(
        expect.arrayContaining(rounds.flatMap((r) => [r.applicationId, r.formApplicationId])),
      );

      // Every e-mail sent once: no link to the form in two messages, and each invitation's and
      // co-applicant's in one.
      const linksIn = (text: string) =>
        [...text.matchAll(/(?:\/applicants\/|[?&]invitation=)([A-Za-z0-9_-]{20,})/g)].map((m) => m[1]);
      const tokens = rounds.flatMap((r) => [r.invitationUrl, r.coApplicantFormUrl].flatMap(linksIn));
      expect(tokens.length).toBe(2 * rounds.length);
      const mailed = () => {
        const counts = new Map<string, number>();
        for (const mail of inbox.received) {
          for (const token of new Set(linksIn(mail.parsed.text ?? ''))) counts.set(token, (counts.get(token) ?? 0) + 1);
        }
        return counts;
      };
      await eventually('every e-mail sent', () => tokens.every((token) => mailed().has(token)), { timeoutMs: 60000 });
      expect([...mailed()].filter(([, count]) => count !== 1)).toEqual([]);
      expect(inbox.received.filter((mail) => linksIn(mail.parsed.text ?? '').length === 0)).toEqual([]);

      // Nothing in the dead-letter queues.
      const deadLetters = await stack.deadLetters();
      expect(Object.entries(deadLetters).filter(([, count]) => count > 0)).toEqual([]);
    },
    15 * 60 * 1000,
  );
});

/** Whether the release at `root` lets its webhooks instance settle the attempts under way when it stops. */
function settlesAtStop(root: string): boolean {
  return readFileSync(join(root, 'apps', 'webhooks', 'src', 'deliveries', 'delivery-worker.ts'), 'utf8').includes(
    'STOP_DRAIN_MS',
  );
}
