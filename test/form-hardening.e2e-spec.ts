import { randomBytes, randomUUID } from 'node:crypto';
import { Channel, ChannelModel, connect, ConsumeMessage } from 'amqplib';
import { APPLICATION_FORMS } from '@app/contracts';
import { formTokenDigest } from '@app/crypto';
import { freePort, RunningProcess, Stack, testFieldKey } from '../tools/stack';
import { request as httpRequest } from 'node:http';
import { pngOf } from '../libs/documents/src/documents.testing';
import { startForm } from './support/form-documents';
import { Api, api, expectErrorBody } from './support/http';

/**
 * What the form takes and answers beyond its pages' own work, against the whole stack: only the
 * bodies a browser sends, its key ring for CSRF tokens, its headers in production, and a page
 * whose message reaches the applications service twice answered the same both times.
 */
describe('the online form, hardened', () => {
  let stack: Stack;
  let client: Api;
  const contact = { first_name: 'Mallory', last_name: 'Hacker', email: 'mallory@example.com' };

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      env: { FORM_RATE_LIMIT_PER_MINUTE: '1000000', FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  async function createProperty(name: string): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/properties', { property: { name } });
    expect(created.status).toBe(201);
    return created.body.property;
  }

  async function applicationsTo(propertyId: number): Promise<Array<Record<string, any>>> {
    return (await client.get(`/api/v2/applications?property_id=${propertyId}`)).body.applications;
  }

  /** A form page's CSRF token, as the form at `url` issued it. */
  async function csrfOf(url: string): Promise<string> {
    const html = await (await fetch(url)).text();
    return /name="csrf_token" value="([^"]+)"/.exec(html)![1];
  }

  function post(url: string, body: string, contentType = 'application/x-www-form-urlencoded'): Promise<Response> {
    return fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': contentType }, body });
  }

  /** Another form process of the stack's, with `env` over the stack's; its base URL. */
  async function otherForm(env: Record<string, string>): Promise<{ url: string; form: RunningProcess }> {
    const port = await freePort();
    const form = await stack.startApp('form', { FORM_PORT: String(port), ...env });
    return { url: `http://127.0.0.1:${port}`, form };
  }

  describe('takes form bodies only', () => {
    it('refuses a JSON body (and text) with a 415 page, storing nothing', async () => {
      const property = await createProperty('Json Court');
      const csrf = await csrfOf(property.application_url);
      for (const [type, body] of [
        ['application/json', JSON.stringify({ ...contact, first_name: 5, csrf_token: csrf })],
        ['application/json', JSON.stringify({ ...contact, email: ['a@example.com'], csrf_token: csrf })],
        ['text/plain', new URLSearchParams({ ...contact, csrf_token: csrf }).toString()],
      ]) {
        const answer = await post(property.application_url, body, type);
        expect({ type, status: answer.status }).toEqual({ type, status: 415 });
        expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await answer.text()).toContain('This request could not be read.');
      }
      expect(await applicationsTo(property.id)).toEqual([]);
      // The same token still works: nothing above reached the page.
      const form = new URLSearchParams({ ...contact, csrf_token: csrf }).toString();
      expect((await post(property.application_url, form)).status).toBe(303);
    });

    it('reads a field sent twice as its last value, and one sent as an array as another field: a form error, never a 500', async () => {
      const property = await createProperty('Twice Court');
      const csrf = await csrfOf(property.application_url);
      const arrays = `first_name[]=Ada&first_name[]=Grace&last_name=Hopper&email=grace@example.com&csrf_token=${csrf}`;
      const refused = await post(property.application_url, arrays);
      expect(refused.status).toBe(422);
      expect(await refused.text()).toContain('First name: is required');

      const twice = `first_name=Ada&first_name=Grace&last_name=Hopper&email=nobody&email=grace@example.com&csrf_token=${csrf}`;
      expect((await post(property.application_url, twice)).status).toBe(303);
      const [application] = await applicationsTo(property.id);
      expect(application.applicants[0].name).toBe('Grace Hopper');
    });
  });

  describe('uploads timed by their progress', () => {
    /** A started applicant's form token. */
    async function startedToken(): Promise<string> {
      const property = await createProperty('Slow Link Lane');
      const application = { property_id: property.id, applicant: { ...contact, email: 'slow@example.com' } };
      const created = await client.post('/api/v2/applications', { application });
      const applicant = await client.get(new URL(created.body.application.applicants[0].api_url).pathname);
      return startForm(stack.formUrl, applicant.body.applicant.form_url);
    }

    /** A multipart upload of `bytes` to the applicant's documents page, as a browser encodes it. */
    async function multipart(token: string, bytes: Buffer): Promise<{ path: string; type: string; body: Buffer }> {
      const path = `/applicants/${token}/documents`;
      const page = await (await fetch(`${stack.formUrl}${path}`)).text();
      const form = new FormData();
      form.append('csrf_token', /name="csrf_token" value="([^"]+)"/.exec(page)![1]);
      form.append('kind', 'photo_id');
      form.append('file', new Blob([bytes], { type: 'image/png' }), 'id.png');
      const encoded = new Request('http://x', { method: 'POST', body: form });
      return { path, type: encoded.headers.get('content-type')!, body: Buffer.from(await encoded.arrayBuffer()) };
    }

    /** Sends `body` in `chunk`-byte pieces, `pauseMs` apart; the status, and how long it all took. */
    function paced(path: string, type: string, body: Buffer, chunk: number, pauseMs: number, stopAfter = Infinity) {
      const { hostname, port } = new URL(stack.formUrl);
      return new Promise<{ status: number | null; ms: number }>((resolve) => {
        const started = Date.now();
        const req = httpRequest({
          hostname,
          port,
          path,
          method: 'POST',
          headers: { 'content-type': type, 'content-length': body.length },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? null, ms: Date.now() - started }));
        });
        req.on('error', () => resolve({ status: null, ms: Date.now() - started }));
        let sent = 0;
        const next = () => {
          if (sent >= body.length) return void req.end();
          if (sent >= stopAfter) return; // stalls: sends nothing more
          req.write(body.subarray(sent, sent + chunk));
          sent += chunk;
          setTimeout(next, pauseMs);
        };
        next();
      });
    }

    it('takes a 9 MB upload that takes 50 s over a slow link, as long as bytes keep coming', async () => {
      const token = await startedToken();
      const { path, type, body } = await multipart(token, Buffer.concat([pngOf(60, 40), randomBytes(9 * 1024 * 1024)]));
      // About 50 s: past the 15 s a stalled connection gets, and past Node's check of a whole
      // request's deadline (every 30 s), which a 15 s deadline on the whole body failed with 408.
      const answer = await paced(path, type, body, 128 * 1024, 700);
      expect(answer.ms).toBeGreaterThan(46_000);
      expect(answer.status).toBe(303);
    }, 120_000);

    it('closes a connection whose body stops coming, after 15 s without a byte', async () => {
      const token = await startedToken();
      const { path, type, body } = await multipart(token, Buffer.concat([pngOf(60, 40), randomBytes(1024 * 1024)]));
      const answer = await paced(path, type, body, 64 * 1024, 10, 128 * 1024);
      expect(answer.ms).toBeGreaterThanOrEqual(14_000);
      expect(answer.ms).toBeLessThan(45_000);
      expect(answer.status === null || answer.status >= 400).toBe(true);
    }, 120_000);
  });

  describe('names that carry paragraphs', () => {
    const paragraph = 'Ada\n\nYou won a prize: https://prize.example.test\u202e';

    it('are refused by the form, naming the field, and start no application', async () => {
      const property = await createProperty('One Line Court');
      const csrf = await csrfOf(property.application_url);
      const body = new URLSearchParams({ ...contact, first_name: paragraph, csrf_token: csrf }).toString();
      const refused = await post(property.application_url, body);
      expect(refused.status).toBe(422);
      expect(await refused.text()).toContain('First name: must not contain line breaks, tabs or other control characters');
      expect(await applicationsTo(property.id)).toEqual([]);
    });

    it('are refused by the API, in every field an e-mail shows, naming each', async () => {
      const property = await createProperty('One Line House');
      const application = {
        property_id: property.id,
        applicant: { first_name: paragraph, last_name: 'Tab\there', email: 'a@example.com' },
      };
      const created = await client.post('/api/v2/applications', { application });
      expect(created.status).toBe(422);
      expect(created.body.error.details).toEqual([
        { field: 'application.applicant.first_name', message: 'must not contain line breaks, tabs or other control characters' },
        { field: 'application.applicant.last_name', message: 'must not contain line breaks, tabs or other control characters' },
      ]);
      const renamed = await client.patch(`/api/v2/properties/${property.id}`, {
        property: { name: 'Elm\r\nBcc: x@example.test' },
      });
      expect(renamed.status).toBe(422);
      expectErrorBody(renamed, 'property.name must not contain line breaks');
      const settings = await client.call('PUT', '/api/v2/notification_settings', {
        notification_settings: { sender_name: 'Us\u2028Win' },
      });
      expect(settings.status).toBe(422);
      expect(await applicationsTo(property.id)).toEqual([]);
    });
  });

  describe('CSRF_KEYS', () => {
    it('signs with the first key and accepts every key of the ring, so a rotation keeps open pages working', async () => {
      const property = await createProperty('Rotation Court');
      const rotated = await otherForm({ CSRF_KEYS: `${testFieldKey('c2')},${stack.csrfKeys}` });
      try {
        const apply = (base: string) => `${base}/properties/${property.id}/apply`;
        // A page the form served before the rotation, sent to a form that runs with the new ring.
        const before = await csrfOf(apply(stack.formUrl));
        const sent = await post(apply(rotated.url), new URLSearchParams({ ...contact, csrf_token: before }).toString());
        expect(sent.status).toBe(303);
        // A page served under the new key: a form without it (the old ring) refuses it.
        const after = await csrfOf(apply(rotated.url));
        const refused = await post(apply(stack.formUrl), new URLSearchParams({ ...contact, csrf_token: after }).toString());
        expect(refused.status).toBe(403);
        expect(await applicationsTo(property.id)).toHaveLength(1);
      } finally {
        await stack.signal(rotated.form, 'SIGTERM');
      }
    });

    it('is a ring of its own: a token signed with the field encryption key is refused', async () => {
      const property = await createProperty('Own Key Court');
      const fieldKeyed = await otherForm({ CSRF_KEYS: stack.fieldEncryptionKeys });
      try {
        const csrf = await csrfOf(`${fieldKeyed.url}/properties/${property.id}/apply`);
        const answer = await post(property.application_url, new URLSearchParams({ ...contact, csrf_token: csrf }).toString());
        expect(answer.status).toBe(403);
      } finally {
        await stack.signal(fieldKeyed.form, 'SIGTERM');
      }
    });
  });

  describe('in production', () => {
    it('sends Strict-Transport-Security with every answer, and lets only the named origins frame the form', async () => {
      const property = await createProperty('Production Court');
      const production = await otherForm({ NODE_ENV: 'production', APPLY_FRAME_ANCESTORS: 'https://landlord.example' });
      try {
        const apply = `${production.url}/properties/${property.id}/apply`;
        const answers = await Promise.all([
          fetch(apply),
          fetch(`${apply}?iframe=true`),
          fetch(`${production.url}/form.css`),
          fetch(`${production.url}/nowhere`),
          post(apply, '{}', 'application/json'),
        ]);
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 404, 415]);
        for (const answer of answers) expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000');
        expect(answers[1].headers.get('content-security-policy')).toContain('frame-ancestors https://landlord.example');
      } finally {
        await stack.signal(production.form, 'SIGTERM');
      }
      // A development form sends none, unless told to.
      expect((await fetch(property.application_url)).headers.get('strict-transport-security')).toBeNull();
      const configured = await otherForm({ FORM_HSTS_MAX_AGE_SECONDS: '600' });
      try {
        const answer = await fetch(`${configured.url}/properties/${property.id}/apply`);
        expect(answer.headers.get('strict-transport-security')).toBe('max-age=600');
      } finally {
        await stack.signal(configured.form, 'SIGTERM');
      }
    });
  });

  describe('a page whose message reaches the applications service again', () => {
    let connection: ChannelModel;
    let channel: Channel;
    const replies = new Map<string, (body: any) => void>();

    beforeAll(async () => {
      connection = await connect(process.env.AMQP_URL!);
      channel = await connection.createChannel();
      await channel.consume(
        'amq.rabbitmq.reply-to',
        (message: ConsumeMessage | null) => {
          if (message) replies.get(message.properties.correlationId)?.(JSON.parse(message.content.toString()));
        },
        { noAck: true },
      );
    });

    afterAll(() => connection?.close());

    /** Sends `data` to the applications service as the form does (and as the broker delivers it again). */
    function ask(pattern: string, data: unknown): Promise<any> {
      const id = randomUUID();
      const reply = new Promise((resolve) => replies.set(id, resolve));
      channel.sendToQueue(`${stack.namespace}applications`, Buffer.from(JSON.stringify({ pattern, data, id })), {
        replyTo: 'amq.rabbitmq.reply-to',
        correlationId: id,
      });
      return reply;
    }

    const start = (propertyId: number, submission: string) =>
      ask(APPLICATION_FORMS.START, { client_id: 1, property_id: propertyId, request: contact, submission });

    it('answers step 1 again as it was answered, with the same link, and starts one application', async () => {
      const property = await createProperty('Redelivered Court');
      const submission = randomBytes(16).toString('base64url');
      const first = await start(property.id, submission);
      const again = await start(property.id, submission);
      expect(first.err).toBeUndefined();
      expect(first.response.token).toMatch(/^[\w-]{60}$/);
      expect(again).toEqual(first);
      expect(await applicationsTo(property.id)).toHaveLength(1);
    });

    it('answers a later step again as it was answered', async () => {
      const property = await createProperty('Repeated Court');
      const { response: started } = await start(property.id, randomBytes(16).toString('base64url'));
      const link = { token_digest: formTokenDigest(started.token), application_id: started.application_id };
      const submission = randomBytes(16).toString('base64url');
      const details = { ...link, request: { desired_move_in: '2031-05-01' }, submission };
      const first = await ask(APPLICATION_FORMS.SAVE_DETAILS, details);
      const again = await ask(APPLICATION_FORMS.SAVE_DETAILS, details);
      expect(first.err).toBeUndefined();
      expect(again).toEqual(first);
      expect(again.response.form_steps).toEqual(['details']);
    });

    it('does step 1 again when the process that claimed it died before answering, and refuses a page still at work', async () => {
      const property = await createProperty('Orphan Court');
      const stale = randomBytes(16).toString('base64url');
      const working = randomBytes(16).toString('base64url');
      const db = await stack.database('applications');
      try {
        await db.collection('form_submissions').insertMany([
          { _id: stale as any, at: new Date(Date.now() - 10 * 60_000) },
          { _id: working as any, at: new Date() },
        ]);
      } finally {
        await db.close();
      }
      const taken = await start(property.id, stale);
      expect(taken.err).toBeUndefined();
      expect((await start(property.id, stale)).response).toEqual(taken.response);
      const refused = await start(property.id, working);
      expect(refused.err).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'csrf_token' }] });
      expect(await applicationsTo(property.id)).toHaveLength(1);
    });
  });
});
