import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ApiError,
  Application,
  ConnectionError,
  NotFoundError,
  PreconditionFailedError,
  RentalApplicationsClient,
  RetryEvent,
  ValidationError,
  verifyWebhook,
  WebhookEvent,
} from '../packages/client';
import { KEYS, Stack } from '../tools/stack';
import { PublishedApi } from './support/openapi';
import { TcpProxy } from './support/tcp-proxy';
import { eventually } from './support/wait';
import { startWebhookStack, stopWebhookStack, WebhookReceiver } from './support/webhook-receiver';

/** A key allowed one request a second, with no burst to speak of. */
const THROTTLED_KEY = 'test-key-throttled';
const RPC_TIMEOUT_MS = 1500;

/**
 * The published client (packages/client, as built to dist) driven against the real stack: what an
 * integrator who installs it gets, from creates and paging to retries and webhooks.
 */
describe('the typed client', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let published: PublishedApi;
  const retries: RetryEvent[] = [];
  const clientOf = (
    options: { apiKey?: string; baseUrl?: string; maxRetries?: number; onRetry?: (event: RetryEvent) => void } = {},
  ) =>
    new RentalApplicationsClient({
      baseUrl: options.baseUrl ?? stack.url,
      apiKey: options.apiKey ?? KEYS.clientOne,
      maxRetries: options.maxRetries,
      onRetry: (event) => {
        retries.push(event);
        options.onRetry?.(event);
      },
    });
  const applicant = (n: number) => ({ first_name: 'Ada', last_name: `Lovelace ${n}`, email: `ada${n}@example.com` });

  beforeAll(async () => {
    ({ stack, receiver } = await startWebhookStack({
      RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${THROTTLED_KEY}:3:1:1`,
    }));
    published = new PublishedApi(await (await fetch(`${stack.url}/api/openapi.json`)).json());
  });

  afterAll(() => stopWebhookStack({ stack, receiver }));

  beforeEach(() => {
    retries.length = 0;
  });

  it('creates, reads and lists across pages, with the ids it was given', async () => {
    const client = clientOf();
    const property = await client.properties.create({ name: 'Client Court' });
    expect(property).toMatchObject({ name: 'Client Court', available: true, kind: 'multi_family' });
    expect(await client.properties.get(property.id)).toEqual(property);

    const made: Application[] = [];
    for (let n = 0; n < 5; n++)
      made.push(await client.applications.create({ property_id: property.id, applicant: applicant(n) }));
    expect(await client.applications.get(made[0].id)).toEqual(made[0]);

    // Two a page: the iterator follows next_cursor through three pages.
    const listed: number[] = [];
    for await (const application of client.applications.list({ property_id: property.id, limit: 2 })) listed.push(application.id);
    expect(listed).toEqual(made.map((application) => application.id).reverse());

    const properties: number[] = [];
    for await (const each of client.properties.list({ limit: 1 })) properties.push(each.id);
    expect(properties).toContain(property.id);
  });

  it('throws typed errors carrying status, message and details', async () => {
    const client = clientOf();
    const missing = await client.applications.get(999_999_999).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, message: 'application 999999999 cannot be found', details: null });
    expect((missing as ApiError).requestId).toEqual(expect.any(String));

    const invalid = await client.properties.create({ name: '' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 422, details: [{ field: 'property.name', message: expect.any(String) }] });

    const unknownProperty = await client.applications
      .create({ property_id: 999_999_999, applicant: applicant(0) })
      .catch((error: unknown) => error);
    expect(unknownProperty).toMatchObject({ status: 422, message: 'property_id is invalid or cannot be found', details: null });
  });

  it('changes an application only as read: a stale If-Match is a typed 412 that changes nothing', async () => {
    const client = clientOf();
    const property = await client.properties.create({ name: 'Conditional Court' });
    const created = await client.applications.create({ property_id: property.id, applicant: applicant(1) });

    const read = await client.applications.get(created.id);
    expect(client.etagOf(read)).toMatch(/^"/);
    const changed = await client.applications.update(read.id, { desired_unit_number: '4B' }, { ifMatch: read });
    expect(changed.desired_unit_number).toBe('4B');

    const stale = await client.applications
      .update(read.id, { desired_unit_number: '9Z' }, { ifMatch: read })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({ status: 412, details: null });
    expect((await client.applications.get(read.id)).desired_unit_number).toBe('4B');
    // Nothing was retried: a 412 is the answer.
    expect(retries).toEqual([]);
  });

  it('retries a create answered 503 after Retry-After, with one Idempotency-Key, and makes one application', async () => {
    const client = clientOf();
    const property = await client.properties.create({ name: 'Outage Court' });
    await stack.stopApp('applications');
    let restarted: Promise<unknown> | undefined;
    const retrying = clientOf({
      maxRetries: 12,
      onRetry: () => {
        restarted ??= stack.startApp('applications');
      },
    });

    const created = await retrying.applications.create({ property_id: property.id, applicant: applicant(2) });
    await restarted;

    expect(retries[0]).toMatchObject({ method: 'POST', path: '/api/v2/applications', status: 503, delayMs: 5000, retry: 1 });
    expect(new Set(retries.map((retry) => retry.idempotencyKey)).size).toBe(1);
    expect(retries[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const listed: number[] = [];
    for await (const application of client.applications.list({ property_id: property.id })) listed.push(application.id);
    expect(listed).toEqual([created.id]);
  }, 120_000);

  it('retries a create whose answer was lost with the same Idempotency-Key: the retry gets the first outcome, not a second application', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(stack.url).port) });
    try {
      const property = await clientOf().properties.create({ name: 'Lost Answer Court' });
      // Its first request opens the proxy's first connection, whose answer is lost.
      const client = clientOf({ baseUrl: `http://127.0.0.1:${proxy.port}` });
      proxy.loseNextAnswer();

      const created = await client.applications.create({ property_id: property.id, applicant: applicant(3) });

      expect(retries).toEqual([expect.objectContaining({ method: 'POST', status: null, retry: 1 })]);
      const listed: number[] = [];
      for await (const application of clientOf().applications.list({ property_id: property.id })) listed.push(application.id);
      expect(listed).toEqual([created.id]);
    } finally {
      await proxy.cut();
    }
  });

  it('does not send a change again when its answer is lost, as it may have been made', async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(stack.url).port) });
    try {
      const property = await clientOf().properties.create({ name: 'Once Court' });
      const client = clientOf({ baseUrl: `http://127.0.0.1:${proxy.port}` });
      proxy.loseNextAnswer();
      const lost = await client.properties.update(property.id, { city: 'Springfield' }).catch((error: unknown) => error);
      expect(lost).toBeInstanceOf(ConnectionError);
      expect(retries).toEqual([]);
    } finally {
      await proxy.cut();
    }
  });

  it('waits out a 429 for as long as Retry-After says, and then succeeds', async () => {
    const client = clientOf({ apiKey: THROTTLED_KEY, maxRetries: 5 });
    const property = await client.properties.create({ name: 'Throttled Court' });
    for (let n = 0; n < 3; n++) expect((await client.properties.get(property.id)).id).toBe(property.id);
    expect(retries.length).toBeGreaterThan(0);
    for (const retry of retries) expect(retry).toMatchObject({ status: 429, delayMs: expect.any(Number) });
    expect(retries.every((retry) => retry.delayMs >= 1000)).toBe(true);
  }, 60_000);

  it('verifies a webhook delivery with its secret and types its event by name', async () => {
    const client = clientOf();
    const webhook = await client.webhooks.create({ url: receiver.url, events: ['applicant.created'] });
    const property = await client.properties.create({ name: 'Hooked Court' });
    const application = await client.applications.create({
      property_id: property.id,
      applicant: { ...applicant(4), reference_id: 'crm-4' },
    });

    const delivery = await eventually('the applicant.created delivery', () =>
      receiver.received.find((request) => JSON.parse(request.body).data.application_id === application.id),
    );
    const event: WebhookEvent = verifyWebhook(delivery.body, delivery.headers, webhook.secret);
    expect(published.validates({ $ref: '#/components/schemas/WebhookEvent' }, event)).toEqual([]);
    if (event.test_mode || event.event !== 'applicant.created') throw new Error(`unexpected event ${event.event}`);
    expect(event.data).toEqual({
      applicant_id: application.applicants[0].id,
      application_id: application.id,
      property_id: property.id,
      reference_id: 'crm-4',
    });

    expect(() => verifyWebhook(delivery.body.replace('crm-4', 'crm-5'), delivery.headers, webhook.secret)).toThrow();
    const rotated = await client.webhooks.rotateSecret(webhook.id);
    expect(() => verifyWebhook(delivery.body, delivery.headers, rotated.secret)).toThrow();

    const deliveries = [];
    for await (const each of client.webhooks.deliveries(webhook.id)) deliveries.push(each.id);
    expect(deliveries).toContain(event.id);
  });
});

describe('the client package', () => {
  const ROOT = join(__dirname, '..');
  const PACKAGE = join(ROOT, 'packages', 'client');

  it('packs its build, its types and its README, and depends on nothing but standardwebhooks', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@rental-applications/client', main: './dist/index.js', types: './dist/index.d.ts' });
    expect(manifest.private).toBeUndefined();
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual({ standardwebhooks: root.devDependencies.standardwebhooks });

    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE, encoding: 'utf8' }),
    );
    const files: string[] = packed.files.map((file: { path: string }) => file.path);
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/api.d.ts']),
    );
    expect(files.filter((file) => !file.startsWith('dist/') && file !== 'README.md' && file !== 'package.json')).toEqual([]);
  });

  it('compiles the README’s example under strict, against the built package', () => {
    const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)![1];
    expect(example.trim().split('\n').length).toBeLessThanOrEqual(10);
    const scratch = mkdtempSync(join(tmpdir(), 'client-readme-'));
    try {
      writeFileSync(join(scratch, 'example.ts'), `${example}\nexport {};\n`);
      writeFileSync(
        join(scratch, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'ES2022',
            module: 'ES2022',
            moduleResolution: 'bundler',
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules', '@types')],
            paths: { '@rental-applications/client': [PACKAGE] },
          },
          files: ['example.ts'],
        }),
      );
      const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], {
        encoding: 'utf8',
      });
      expect([tsc.status, tsc.stdout]).toEqual([0, '']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
