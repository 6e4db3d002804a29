import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { parse } from 'yaml';
import { queueName } from '@app/contracts';
import { freePort, KEYS, Stack } from '../tools/stack';
import { Api, api } from './support/http';
import { scrape, valueOf } from './support/metrics';
import { ReceivedSpan, OtlpReceiver, SPAN_KIND } from './support/otlp-receiver';
import { sendStep, startForm, uploadDocument } from './support/form-documents';
import { SmtpInbox } from './support/smtp-inbox';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';

/** The test's own address, from which it calls the apps: their trusted caller, whose traces they continue. */
const THIS_CALLER = '127.0.0.1,::1';

/** A trace of the test's own: the API request it makes is a child of this span, so its trace is known. */
function testTrace(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/**
 * Every span of the trace has its parent in the trace (or is the test's own request's child):
 * one tree, no orphan, whichever process sent each part. Resolves to the spans once `wanted`
 * holds of them and the tree is whole, as the apps export them in batches.
 */
async function wholeTrace(
  receiver: OtlpReceiver,
  root: { traceId: string; spanId: string },
  what: string,
  wanted: (spans: ReceivedSpan[]) => boolean,
): Promise<ReceivedSpan[]> {
  return eventually(
    what,
    () => {
      const spans = receiver.trace(root.traceId);
      const ids = new Set([root.spanId, ...spans.map(({ spanId }) => spanId)]);
      return wanted(spans) && spans.every(({ parentSpanId }) => ids.has(parentSpanId)) && spans;
    },
    { timeoutMs: 20000 },
  );
}

const has = (spans: ReceivedSpan[], service: string, test: (span: ReceivedSpan) => boolean) =>
  spans.some((span) => span.service === service && test(span));

/** The chain of parents from `span` up to the trace's root, as `service name` strings. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  const chain: string[] = [];
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId)) chain.unshift(`${at.service} ${at.name}`);
  return chain;
}

/**
 * Traces and metrics across every app: the stack exports to an OTLP/HTTP receiver of the test's own, and one
 * request's work, through the broker, the outbox relay, the webhook delivery and the e-mail,
 * arrives as one trace.
 */
describe('observability', () => {
  let receiver: OtlpReceiver;
  let hooks: WebhookReceiver;
  let inbox: SmtpInbox;
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    hooks = await WebhookReceiver.start();
    inbox = await SmtpInbox.start();
    stack = await Stack.start({
      form: true,
      instances: { webhooks: 1, notifications: 1 },
      startTimeoutMs: 90_000,
      env: {
        // No OTEL_EXPORTER_OTLP_PROTOCOL: the SDK's default, http/protobuf, as most deployments have it.
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // The batch span processor exports every 100 ms instead of every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        // The test's own requests continue its traces: it is the apps' trusted caller.
        TRACE_TRUSTED_CALLERS: THIS_CALLER,
        EVENT_RELAY_INTERVAL_MS: '100',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SMTP_URL: inbox.url,
        MAIL_FROM: 'applications@mail.example.test',
        FORM_RATE_LIMIT_PER_MINUTE: '1000000',
        // A retry one second after a failed attempt, one attempt at a time per endpoint, the
        // breaker open after two failures in a row, and one reminder 1.8 s after a form starts.
        WEBHOOK_RETRY_SCHEDULE: '1',
        WEBHOOK_ENDPOINT_CONCURRENCY: '1',
        WEBHOOK_BREAKER_FAILURES: '2',
        REMINDER_AFTER_HOURS: '0.0005',
        MAX_REMINDERS: '1',
      },
    });
    client = api(stack.url);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await hooks?.down();
    await inbox?.close();
    await receiver?.close();
  });

  async function createProperty(name: string, kind?: string): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/properties', { property: { name, ...(kind ? { kind } : {}) } });
    expect(created.status).toBe(201);
    return created.body.property;
  }

  /** An application at `propertyId` with one applicant, created with `headers`: its applicant, as the API reads it. */
  async function createApplicant(
    propertyId: number,
    applicant: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Record<string, any>> {
    const created = await client.post(
      '/api/v2/applications',
      { application: { property_id: propertyId, applicant } },
      { headers },
    );
    expect(created.status).toBe(201);
    return (await client.get(new URL(created.body.application.applicants[0].api_url).pathname)).body.applicant;
  }

  it('follows an API create of an application through both services, the database, the relay and the webhook delivery', async () => {
    const property = await createProperty('Trace Court');
    expect((await client.post('/api/v2/webhooks', { webhook: { url: hooks.url, events: ['application.created'] } })).status).toBe(
      201,
    );
    const root = testTrace();
    const created = await client.post(
      '/api/v2/applications',
      {
        application: {
          property_id: property.id,
          applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        },
      },
      { headers: { traceparent: root.traceparent } },
    );
    expect(created.status).toBe(201);

    const spans = await wholeTrace(receiver, root, 'the create, its event and its webhook in one trace', (trace) =>
      has(trace, 'webhooks', (span) => span.kind === SPAN_KIND.client && span.attributes['http.request.method'] === 'POST'),
    );
    const server = spans.find((span) => span.service === 'gateway' && span.kind === SPAN_KIND.server)!;
    expect(server.name).toBe('POST /api/v2/applications');
    expect(server.parentSpanId).toBe(root.spanId);
    expect(has(spans, 'gateway', (span) => span.name === 'applications.create' && span.kind === SPAN_KIND.client)).toBe(true);
    expect(has(spans, 'applications', (span) => span.name === 'applications.create' && span.kind === SPAN_KIND.server)).toBe(
      true,
    );
    expect(has(spans, 'applications', (span) => span.name === 'properties.lookup' && span.kind === SPAN_KIND.client)).toBe(true);
    expect(has(spans, 'properties', (span) => span.name === 'properties.lookup' && span.kind === SPAN_KIND.server)).toBe(true);
    // Each service's database commands are spans of the handler they are sent from, named by
    // command and collection: the application's insert under the create, the property's read
    // under the lookup.
    const commands = (service: string) =>
      spans.filter((span) => span.service === service && span.attributes['db.system.name'] === 'mongodb');
    const under = (span: ReceivedSpan, handler: string) => ancestry(spans, span).includes(handler);
    expect(
      commands('applications').some(
        (span) => span.name === 'insert applications' && under(span, 'applications applications.create'),
      ),
    ).toBe(true);
    expect(
      commands('properties').some((span) => span.name === 'find properties' && under(span, 'properties properties.lookup')),
    ).toBe(true);
    for (const span of [...commands('applications'), ...commands('properties')]) {
      expect(span.kind).toBe(SPAN_KIND.client);
      expect(span.attributes['db.collection.name']).toBe(span.name.split(' ')[1]);
    }
    const delivery = spans.find(
      (span) =>
        span.service === 'webhooks' && span.kind === SPAN_KIND.client && span.attributes['http.request.method'] === 'POST',
    )!;
    // The delivery descends from the relay's publish, which descends from the service's handler,
    // which descends from the gateway's request: parent links across the broker, every hop.
    const chain = ancestry(spans, delivery);
    expect(chain[0]).toBe('gateway POST /api/v2/applications');
    expect({ chain }).toEqual({
      chain: expect.arrayContaining([
        'gateway applications.create',
        'applications applications.create',
        'applications relay application.created',
      ]),
    });
    const at = (step: string) => chain.findIndex((name) => name === step);
    expect(at('gateway applications.create')).toBeGreaterThan(0);
    expect(at('applications applications.create')).toBeGreaterThan(at('gateway applications.create'));
    expect(at('applications relay application.created')).toBeGreaterThan(at('applications applications.create'));
    expect(at('webhooks ' + delivery.name)).toBe(chain.length - 1);
    // The receiver got the trace context too, and no path or query of a URL is recorded.
    const [webhook] = await eventually('the webhook', () => hooks.received.length > 0 && hooks.received);
    expect(webhook.headers.traceparent).toMatch(new RegExp(`^00-${root.traceId}-`));
    for (const name of ['url.full', 'http.url', 'http.target'])
      expect(delivery.attributes[name] ?? 'not recorded').toBe('not recorded');
    for (const name of ['url.path', 'http.target'])
      expect(server.attributes[name] ?? '/api/v2/applications').toBe('/api/v2/applications');
    expect(JSON.stringify(spans)).not.toContain(hooks.url);
    // Each service's log line of the message it handled leads to the trace and to its span.
    const handler = spans.find((span) => span.service === 'applications' && span.name === 'applications.create')!;
    const line = stack.processes
      .find((running) => running.app === 'applications')!
      .logs.find(
        (record) =>
          record.msg === 'message handled' && record.pattern === 'applications.create' && record.trace_id === root.traceId,
      );
    expect(line?.span_id).toBe(handler.spanId);
  });

  it('drops whole a trace its caller did not sample: no app makes a span of it, each passes it on and logs it', async () => {
    const property = await createProperty('Unsampled Court');
    const create = (headers: Record<string, string>) =>
      client.post(
        '/api/v2/applications',
        {
          application: {
            property_id: property.id,
            applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
          },
        },
        { headers },
      );
    const dropped = testTrace();
    const requestId = `unsampled-${randomBytes(4).toString('hex')}`;
    const unsampled = `00-${dropped.traceId}-${dropped.spanId}-00`;
    expect((await create({ traceparent: unsampled, 'x-request-id': requestId })).status).toBe(201);
    // A sampled create after it, whole in the receiver: each app exports its spans in the order
    // they end, so any span of the first would have come by now.
    const after = testTrace();
    expect((await create({ traceparent: after.traceparent })).status).toBe(201);
    await wholeTrace(
      receiver,
      after,
      'the sampled create after it',
      (trace) =>
        has(trace, 'properties', (span) => span.name === 'properties.lookup') &&
        has(trace, 'applications', (span) => span.name === 'relay application.created'),
    );
    expect(receiver.trace(dropped.traceId)).toEqual([]);
    // Nor did a database command of it start a trace of its own: none is ever without a parent.
    expect(receiver.spans.filter((span) => span.attributes['db.system.name'] === 'mongodb' && !span.parentSpanId)).toEqual([]);
    // Not a trace of their own either: both services handled the request in the caller's trace.
    for (const [app, pattern] of [
      ['applications', 'applications.create'],
      ['properties', 'properties.lookup'],
    ]) {
      const line = stack.processes
        .find((running) => running.app === app)!
        .logs.find((record) => record.msg === 'message handled' && record.pattern === pattern && record.request_id === requestId);
      expect({ app, trace_id: line?.trace_id }).toEqual({ app, trace_id: dropped.traceId });
    }
  });

  it("lets only a trusted caller's sampled traceparent force a trace; anyone else's is logged, not followed", async () => {
    const property = await createProperty('Untrusted Court');
    // A gateway that samples no new trace, as a ratio sampler does most: only a caller's decision could keep one.
    const port = await freePort();
    const gateway = await stack.startApp('gateway', {
      PORT: String(port),
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    try {
      const body = JSON.stringify({
        application: {
          property_id: property.id,
          applicant: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        },
      });
      /** A create sent from `from`, a loopback address of this machine: 127.0.0.1 is trusted, 127.0.0.2 is not. */
      const create = (from: string, headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const sent = httpRequest(
            { host: '127.0.0.1', port, path: '/api/v2/applications', method: 'POST', localAddress: from },
            (response) => response.resume().once('end', () => resolve(response.statusCode ?? 0)),
          );
          sent.once('error', reject);
          for (const [name, value] of Object.entries({ ...headers, authorization: `Bearer ${KEYS.clientOne}` }))
            sent.setHeader(name, value);
          sent.setHeader('content-type', 'application/json');
          sent.end(body);
        });
      const forced = testTrace();
      const requestId = `untrusted-${randomBytes(4).toString('hex')}`;
      expect(await create('127.0.0.2', { traceparent: forced.traceparent, 'x-request-id': requestId })).toBe(201);
      // A trusted caller's sampled create after it is followed, whole: any span of the first would have come by now.
      const trusted = testTrace();
      expect(await create('127.0.0.1', { traceparent: trusted.traceparent })).toBe(201);
      const spans = await wholeTrace(receiver, trusted, "the trusted caller's create", (trace) =>
        has(trace, 'applications', (span) => span.name === 'relay application.created'),
      );
      expect(spans.find((span) => span.service === 'gateway' && span.kind === SPAN_KIND.server)?.parentSpanId).toBe(
        trusted.spanId,
      );
      expect(receiver.trace(forced.traceId)).toEqual([]);
      // The untrusted request ran in a trace of the gateway's own, not sampled, and logged the caller's for correlation.
      const line = gateway.logs.find((record) => record.request_id === requestId && record.caller_trace_id);
      expect(line?.caller_trace_id).toBe(forced.traceId);
      expect(line?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(line?.trace_id).not.toBe(forced.traceId);
      expect(receiver.trace(line!.trace_id as string)).toEqual([]);
    } finally {
      await stack.signal(gateway, 'SIGTERM');
    }
  });

  it('follows an e-mail: an applicant added with send_email is e-mailed in the trace of the request that added it', async () => {
    const property = await createProperty('Mail Court');
    const created = await client.post('/api/v2/applications', {
      application: {
        property_id: property.id,
        applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      },
    });
    expect(created.status).toBe(201);
    const root = testTrace();
    const address = `ada.${randomBytes(4).toString('hex')}@example.com`;
    const added = await client.post(
      `/api/v2/applications/${created.body.application.id}/applicants`,
      { applicant: { first_name: 'Ada', last_name: 'Lovelace', email: address, send_email: true } },
      { headers: { traceparent: root.traceparent } },
    );
    expect(added.status).toBe(201);
    const spans = await wholeTrace(receiver, root, 'the e-mail in the trace of its request', (trace) =>
      has(trace, 'notifications', (span) => span.name === 'smtp send'),
    );
    const send = spans.find((span) => span.name === 'smtp send')!;
    expect(send.kind).toBe(SPAN_KIND.client);
    const chain = ancestry(spans, send);
    expect(chain[0]).toBe('gateway POST /api/v2/applications/:application_id/applicants');
    expect(chain).toContain('applications relay applicant.created');
    await eventually('the e-mail', () => inbox.to(address).length > 0);
  });

  it('follows a form submission from the form through the applications service and its writes', async () => {
    const property = await createProperty('Form Court');
    const page = await fetch(property.application_url);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const root = testTrace();
    const submitted = await fetch(property.application_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', traceparent: root.traceparent },
      body: new URLSearchParams({
        first_name: 'Alan',
        last_name: 'Turing',
        email: 'alan@example.com',
        csrf_token: csrf,
      }).toString(),
    });
    expect(submitted.status).toBe(303);
    const spans = await wholeTrace(
      receiver,
      root,
      'the submission in one trace',
      (trace) =>
        has(trace, 'applications', (span) => span.kind === SPAN_KIND.server) &&
        has(
          trace,
          'applications',
          (span) => span.attributes['db.system.name'] === 'mongodb' || span.attributes['db.system'] === 'mongodb',
        ),
    );
    const form = spans.find((span) => span.service === 'form' && span.kind === SPAN_KIND.server)!;
    expect(form.name).toBe('POST /properties/:id/apply');
    expect(form.parentSpanId).toBe(root.spanId);
    const handler = spans.find((span) => span.service === 'applications' && span.kind === SPAN_KIND.server)!;
    expect(ancestry(spans, handler)[0]).toBe('form POST /properties/:id/apply');
  });

  it('keeps a webhook delivery and its retry in the trace of the change that caused them', async () => {
    const flaky = await WebhookReceiver.start();
    let unsubscribe = async (): Promise<unknown> => undefined;
    try {
      let answered = 0;
      flaky.answer = (_request, response) => response.writeHead(answered++ === 0 ? 503 : 204).end();
      const subscribed = await client.post('/api/v2/webhooks', { webhook: { url: flaky.url, events: ['property.created'] } });
      expect(subscribed.status).toBe(201);
      unsubscribe = () => client.delete(`/api/v2/webhooks/${subscribed.body.webhook.id}`);
      const root = testTrace();
      const created = await client.post(
        '/api/v2/properties',
        { property: { name: 'Retry Court' } },
        { headers: { traceparent: root.traceparent } },
      );
      expect(created.status).toBe(201);
      const attemptsIn = (trace: ReceivedSpan[]) =>
        trace.filter(
          (span) =>
            span.service === 'webhooks' && span.kind === SPAN_KIND.client && span.attributes['http.request.method'] === 'POST',
        );
      const spans = await wholeTrace(
        receiver,
        root,
        'both attempts in the trace of the create',
        (trace) => attemptsIn(trace).length === 2,
      );
      const attempts = attemptsIn(spans);
      // The retry descends from the failed attempt's message, which descends from the create.
      expect(ancestry(spans, attempts[1])).toEqual(expect.arrayContaining(ancestry(spans, attempts[0]).slice(0, -1)));
      for (const attempt of attempts) expect(ancestry(spans, attempt)[0]).toBe('gateway POST /api/v2/properties');
      expect(flaky.received.map(({ headers }) => headers.traceparent.split('-')[1])).toEqual([root.traceId, root.traceId]);
    } finally {
      // Its later events would fail against a receiver gone, and open the breaker the next test counts.
      await unsubscribe();
      await flaky.down();
    }
  });

  it("links an applicant's form step to the trace that issued its link, and keeps its reminder in the step's trace", async () => {
    const property = await createProperty('Link Court');
    const issued = testTrace();
    const address = `edsger.${randomBytes(4).toString('hex')}@example.com`;
    const edsger = { first_name: 'Edsger', last_name: 'Dijkstra', email: address };
    const applicant = await createApplicant(property.id, edsger, { traceparent: issued.traceparent });
    const step = testTrace();
    await startForm(stack.formUrl, applicant.form_url, edsger, { traceparent: step.traceparent });
    const spans = await wholeTrace(
      receiver,
      step,
      "the step linked to the link's trace, then its reminder",
      (trace) =>
        has(trace, 'applications', (span) => span.links.some(({ traceId }) => traceId === issued.traceId)) &&
        has(
          trace,
          'notifications',
          (span) => span.name === 'smtp send' && span.attributes['rental.notification.kind'] === 'reminder',
        ),
    );
    expect(spans.every((span) => span.traceId === step.traceId)).toBe(true);
    const reminder = spans.find(
      (span) => span.name === 'smtp send' && span.attributes['rental.notification.kind'] === 'reminder',
    )!;
    expect(ancestry(spans, reminder)[0]).toMatch(/^form POST \/applicants\/:token/);
    await eventually('the reminder', () => inbox.to(address).length > 0);
  });

  it('exports every span of a stopping app before it exits, over OTLP/HTTP JSON and OTLP/gRPC alike', async () => {
    const flushed = await OtlpReceiver.start();
    // Spans are batched for ten minutes: only the flush at the stop can send them.
    const stopping = await Stack.start({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: flushed.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        TRACE_TRUSTED_CALLERS: THIS_CALLER,
      },
    });
    try {
      // A second properties instance exports over gRPC: the broker hands the reads to both in turn.
      await stopping.startApp('properties', {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_ENDPOINT: await flushed.listenGrpc(),
      });
      const own = api(stopping.url);
      const created = await own.post('/api/v2/properties', { property: { name: 'Flush Court' } });
      expect(created.status).toBe(201);
      const roots = Array.from({ length: 6 }, () => testTrace());
      for (const root of roots) {
        const read = await own.get(`/api/v2/properties/${created.body.property.id}`, {
          headers: { traceparent: root.traceparent },
        });
        expect(read.status).toBe(200);
      }
      await stopping.stop();
      for (const root of roots) {
        const services = new Set(flushed.trace(root.traceId).map((span) => span.service));
        expect([...services].sort()).toEqual(['gateway', 'properties']);
      }
      expect([...flushed.encodings].sort()).toEqual(['application/grpc', 'application/json']);
    } finally {
      await stopping.stop();
      await flushed.close();
    }
  });

  it('handles a message whose traceparent is malformed or hostile as if it had none', async () => {
    const connection = await connect(process.env.AMQP_URL!);
    try {
      const channel = await connection.createChannel();
      const { queue: replyTo } = await channel.assertQueue('', { exclusive: true });
      const answers = new Map<string, unknown>();
      await channel.consume(
        replyTo,
        (message) => message && answers.set(message.properties.correlationId, JSON.parse(message.content.toString())),
        {
          noAck: true,
        },
      );
      const valid = testTrace();
      const hostile: unknown[] = [
        'garbage',
        `00-${'0'.repeat(32)}-${valid.spanId}-01`,
        `00-${valid.traceId}-${'0'.repeat(16)}-01`,
        `ff-${valid.traceId}-${valid.spanId}-01`,
        `00-${valid.traceId.toUpperCase()}-${valid.spanId}-01`,
        `00-${valid.traceId}-${valid.spanId}-01-${'x'.repeat(10_000)}`,
        12345,
        { nested: valid.traceparent },
      ];
      const ids = hostile.map((traceparent, index) => {
        const id = `hostile-${index}-${randomBytes(4).toString('hex')}`;
        const body = JSON.stringify({ pattern: 'properties.ping', data: {}, id });
        channel.sendToQueue(queueName(stack.namespace, 'properties'), Buffer.from(body), {
          replyTo,
          correlationId: id,
          headers: { traceparent, tracestate: 'a'.repeat(600) },
        });
        return id;
      });
      await eventually('every hostile message answered', () => ids.every((id) => answers.has(id)));
      for (const id of ids) expect(answers.get(id)).toMatchObject({ response: expect.anything(), isDisposed: true });
      const handled = await eventually('a span for each', () => {
        const consumed = receiver.spans.filter(
          (span) => span.kind === SPAN_KIND.server && ids.includes(String(span.attributes['messaging.conversation_id'])),
        );
        return consumed.length === ids.length && consumed;
      });
      for (const span of handled) {
        expect(span.service).toBe('properties');
        expect(span.parentSpanId).toBe('');
        expect(span.traceId).not.toBe(valid.traceId);
      }
    } finally {
      await connection.close();
    }
  });
  it('serves every metric the dashboard and the alert rules name, from the apps themselves', async () => {
    const chart = join(__dirname, '..', 'deploy', 'helm', 'rental-applications', 'files');
    const dashboard = JSON.parse(readFileSync(join(chart, 'grafana', 'rental-applications.json'), 'utf8')) as {
      panels: Array<{ targets?: Array<{ expr: string }> }>;
    };
    const rules = parse(readFileSync(join(chart, 'prometheus', 'rules.yaml'), 'utf8')) as {
      groups: Array<{ rules: Array<{ expr: string }> }>;
    };
    const queries = [
      ...dashboard.panels.flatMap(({ targets = [] }) => targets.map(({ expr }) => expr)),
      ...rules.groups.flatMap((group) => group.rules.map(({ expr }) => expr)),
    ];
    const named = new Set(queries.flatMap(metricNamesIn));
    expect(named.size).toBeGreaterThan(15);
    const served = new Set<string>();
    for (const running of stack.processes) {
      const text = await (await fetch(`${running.operationsUrl}/metrics`)).text();
      for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        const suffixes =
          type === 'histogram' ? ['_bucket', '_count', '_sum'] : type === 'summary' ? ['', '_count', '_sum'] : [''];
        for (const suffix of suffixes) served.add(name + suffix);
      }
    }
    expect([...named].filter((name) => !served.has(name))).toEqual([]);
  });

  it('counts webhook attempts held back by the caps and endpoints the breaker left alone', async () => {
    const slow = await WebhookReceiver.start();
    const held: Array<() => void> = [];
    slow.answer = (_request, response) => held.push(() => response.writeHead(500).end());
    try {
      expect((await client.post('/api/v2/webhooks', { webhook: { url: slow.url, events: ['property.updated'] } })).status).toBe(
        201,
      );
      const property = await createProperty('Held Court');
      for (const name of ['Held Court 2', 'Held Court 3'])
        expect((await client.patch(`/api/v2/properties/${property.id}`, { property: { name } })).status).toBe(200);
      const webhooks = () => scrape(stack.processes.find((running) => running.app === 'webhooks')!.operationsUrl);
      // One attempt at a time to an endpoint: while the first is held, the second waits its turn.
      await eventually(
        'an attempt held back',
        async () => valueOf(await webhooks(), 'webhook_attempts_held_total', { reason: 'busy' }) >= 1,
      );
      expect(valueOf(await webhooks(), 'webhook_endpoints_open')).toBe(0);
      // Two failures in a row: the breaker leaves the endpoint alone.
      await eventually('the breaker open', async () => {
        held.splice(0).forEach((answer) => answer());
        return valueOf(await webhooks(), 'webhook_endpoints_open') === 1;
      });
    } finally {
      held.splice(0).forEach((answer) => answer());
      await slow.down();
    }
  });

  it("counts the form's steps submitted and refused, and documents stored and refused, by bounded labels only", async () => {
    const property = await createProperty('Count Court', 'single_family');
    const barbara = { first_name: 'Barbara', last_name: 'Liskov', email: 'barbara@example.com' };
    const token = await startForm(stack.formUrl, (await createApplicant(property.id, barbara)).form_url, barbara);
    expect((await sendStep(stack.formUrl, token, 'details', { desired_move_in: '2027-03-01' })).status).toBe(303);
    const form = () => scrape(stack.processes.find((running) => running.app === 'form')!.operationsUrl);
    const before = await form();
    const refusedStep = await sendStep(stack.formUrl, token, 'identity', { dob: 'not a date', id_number: '' });
    expect(refusedStep.status).toBe(422);
    const savedStep = await sendStep(stack.formUrl, token, 'identity', { dob: '1990-04-12', id_number: '123-45-6789' });
    expect(savedStep.status).toBe(303);
    const pdf = Buffer.from('%PDF-1.4\n% a pay stub\n%%EOF\n');
    expect(
      (
        await uploadDocument(stack.formUrl, token, {
          kind: 'proof_of_income',
          name: 'stub.pdf',
          type: 'application/pdf',
          bytes: pdf,
        })
      ).status,
    ).toBe(303);
    const refusedUpload = await uploadDocument(stack.formUrl, token, {
      name: 'note.png',
      type: 'image/png',
      bytes: Buffer.from('not an image'),
    });
    expect(refusedUpload.status).toBe(422);
    const after = await form();
    const grew = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(grew('form_steps_total', { step: 'identity', outcome: 'refused' })).toBe(1);
    expect(grew('form_steps_total', { step: 'identity', outcome: 'submitted' })).toBe(1);
    expect(grew('documents_total', { outcome: 'stored', reason: '' })).toBe(1);
    const refusedDocuments = after.filter((sample) => sample.name === 'documents_total' && sample.labels.outcome === 'refused');
    expect(refusedDocuments.reduce((sum, sample) => sum + sample.value, 0)).toBeGreaterThanOrEqual(1);
    // No label value is an id, a token or a URL.
    const labelValues = after
      .filter(({ name }) => name === 'form_steps_total' || name === 'documents_total')
      .flatMap(({ labels }) => Object.values(labels));
    for (const value of labelValues) expect(value).toMatch(/^[A-Za-z_]*$/);
  });

  it('counts the deliveries and reads the queues and the outbox at each scrape', async () => {
    const metricsOf = async (app: string) => scrape(stack.processes.find((running) => running.app === app)!.operationsUrl);
    expect(valueOf(await metricsOf('webhooks'), 'webhook_attempts_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    const applications = await metricsOf('applications');
    const queue = queueName(stack.namespace, 'applications');
    expect(valueOf(applications, 'queue_consumers', { queue })).toBe(1);
    expect(applications.filter(({ name }) => name === 'queue_messages_ready' || name === 'events_outbox_waiting')).toHaveLength(
      2,
    );
  });
});

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges
 * and label lists are taken out, less functions (a name before a parenthesis) and keywords.
 */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map(([name]) => name)
    .filter((name) => !keywords.has(name));
}
