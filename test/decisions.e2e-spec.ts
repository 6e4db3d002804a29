import { applyAsAda, startApplicationStack, stopApplicationStack } from './support/application-stack';
import { Api, expectErrorBody } from './support/http';
import { EventTap } from './support/events';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
import { KEYS, Stack } from '../tools/stack';

/** Client 3 lists: it owns only what the list test creates. */
const LISTER = 'test-key-decision-lister';
const applications = '/api/v2/applications';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const KEY_ID = /^[0-9a-f]{16}$/;

describe('decisions on applications', () => {
  let stack: Stack;
  let client: Api;
  let tap: EventTap;
  let receiver: WebhookReceiver;
  let property: { id: number; floor_plans: Array<{ id: number }> };

  beforeAll(async () => {
    ({ stack, client, tap, receiver, property } = await startApplicationStack(LISTER, 'Deciding Court'));
  });

  afterAll(() => stopApplicationStack({ receiver, tap, stack }));

  const apply = (key?: string, propertyId = property.id) => applyAsAda(client, propertyId, key);
  const decide = (id: number, decision: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    client.post(`${applications}/${id}/decision`, { decision }, options);

  it('records a decision, shows it as the application’s status, and keeps every earlier one newest first', async () => {
    const created = await apply();
    expect(created.status).toBe('draft');
    expect(Object.keys(created).indexOf('status')).toBe(Object.keys(created).indexOf('archived') + 1);
    expect((await client.get(`${applications}/${created.id}/decisions`)).body).toEqual({ decisions: [] });
    const none = await client.get(`${applications}/${created.id}/decision`);
    expect(none.status).toBe(404);
    expectErrorBody(none, `application ${created.id} has no decision yet`);

    const conditional = await decide(created.id, {
      status: 'conditionally_approved',
      conditions: [
        { kind: 'deposit', amount: 3700 },
        { kind: 'guarantor' },
        { kind: 'other', text: ' Proof of renter’s insurance ' },
      ],
      note: 'Bring the deposit by December 1.',
      decided_by: '42',
    });
    expect(conditional.status).toBe(201);
    expect(conditional.body).toEqual({
      decision: {
        status: 'conditionally_approved',
        conditions: [
          { kind: 'deposit', amount: 3700, text: null },
          { kind: 'guarantor', amount: null, text: null },
          { kind: 'other', amount: null, text: 'Proof of renter’s insurance' },
        ],
        reasons: [],
        note: 'Bring the deposit by December 1.',
        decided_by: 42,
        key_id: expect.stringMatching(KEY_ID),
        decided_at: expect.stringMatching(TIMESTAMP),
      },
    });
    expect(Object.keys(conditional.body.decision)).toEqual([
      'status',
      'conditions',
      'reasons',
      'note',
      'decided_by',
      'key_id',
      'decided_at',
    ]);
    const after = (await client.get(`${applications}/${created.id}`)).body.application;
    expect(after).toMatchObject({ status: 'conditionally_approved' });
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const declined = await decide(created.id, { status: 'declined', reasons: ['income', 'rental_history'] });
    expect(declined.status).toBe(201);
    expect(declined.body.decision).toMatchObject({ status: 'declined', reasons: ['income', 'rental_history'], conditions: [] });
    expect((await client.get(`${applications}/${created.id}/decision`)).body).toEqual(declined.body);
    expect((await client.get(`${applications}/${created.id}`)).body.application.status).toBe('declined');
    expect((await client.get(`${applications}/${created.id}/decisions`)).body).toEqual({
      decisions: [declined.body.decision, conditional.body.decision],
    });
  });

  it('records a request sent twice with one Idempotency-Key once', async () => {
    const created = await apply();
    const headers = { 'idempotency-key': `decide-${created.id}` };
    const first = await decide(created.id, { status: 'approved' }, { headers });
    const again = await decide(created.id, { status: 'approved' }, { headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect((await client.get(`${applications}/${created.id}/decisions`)).body.decisions).toHaveLength(1);
  });

  it('refuses a stale If-Match, an archived application, another client’s and a bad value', async () => {
    const created = await apply();
    const path = `${applications}/${created.id}`;
    const tag = (await client.get(path)).headers.get('etag')!;
    expect((await client.patch(path, { application: { referral: 'Web' } })).status).toBe(200);
    const stale = await decide(created.id, { status: 'approved' }, { headers: { 'if-match': tag } });
    expect(stale.status).toBe(412);
    expectErrorBody(stale);
    const current = (await client.get(path)).headers.get('etag')!;
    expect((await decide(created.id, { status: 'approved' }, { headers: { 'if-match': current } })).status).toBe(201);

    const foreign = await decide(created.id, { status: 'approved' }, { key: KEYS.clientTwo });
    expect(foreign.status).toBe(404);
    expectErrorBody(foreign, `application ${created.id} cannot be found`);
    for (const read of ['decision', 'decisions']) {
      const answer = await client.get(`${path}/${read}`, { key: KEYS.clientTwo });
      expect(answer.status).toBe(404);
      expectErrorBody(answer, `application ${created.id} cannot be found`);
    }
    expect((await decide(99999999, { status: 'approved' })).status).toBe(404);
    expect((await client.get(`${applications}/abc/decisions`)).status).toBe(404);

    const cases: Array<[unknown, Array<{ field: string; message: string }>]> = [
      [
        { status: 'maybe' },
        [{ field: 'decision.status', message: 'must be one of approved, conditionally_approved, declined, withdrawn' }],
      ],
      [{}, [{ field: 'decision.status', message: 'is required' }]],
      [{ status: 'declined' }, [{ field: 'decision.reasons', message: 'must list at least one reason for declined' }]],
      [
        { status: 'declined', reasons: ['income', 'looks'] },
        [{ field: 'decision.reasons', message: 'must list only income, rental_history, screening_report, incomplete, other' }],
      ],
      [
        { status: 'declined', reasons: ['other'] },
        [{ field: 'decision.note', message: 'is required when reasons include other: it says what the other reason is' }],
      ],
      [{ status: 'approved', reasons: ['income'] }, [{ field: 'decision.reasons', message: 'are only for declined' }]],
      [
        { status: 'conditionally_approved' },
        [{ field: 'decision.conditions', message: 'must list at least one condition for conditionally_approved' }],
      ],
      [
        { status: 'approved', conditions: [{ kind: 'guarantor' }] },
        [{ field: 'decision.conditions', message: 'are only for conditionally_approved' }],
      ],
      [
        { status: 'conditionally_approved', conditions: [{ kind: 'deposit' }, { kind: 'other' }, { kind: 'pet' }] },
        [
          { field: 'decision.conditions.2.kind', message: 'must be one of deposit, guarantor, co_signer, other' },
          { field: 'decision.conditions.0.amount', message: 'is required for a deposit condition' },
          { field: 'decision.conditions.1.text', message: 'is required for an other condition' },
        ],
      ],
      [{ status: 'approved', decided_by: 0 }, [{ field: 'decision.decided_by', message: 'must be at least 1' }]],
      [{ status: 'approved', by: 'me' }, [{ field: 'decision.by', message: 'is not a known field' }]],
    ];
    for (const [decision, details] of cases) {
      const answer = await decide(created.id, decision);
      expect({ decision, status: answer.status, details: answer.body.error.details }).toEqual({ decision, status: 422, details });
      expect(answer.body.error.message).toBe(`${details[0].field} ${details[0].message}`);
    }

    expect((await client.patch(path, { application: { archived: true } })).status).toBe(200);
    const archived = await decide(created.id, { status: 'approved' });
    expect(archived.status).toBe(409);
    expectErrorBody(archived, `application ${created.id} is archived; restore it (PATCH archived: false) before deciding on it`);
    expect((await client.get(`${path}/decisions`)).body.decisions).toHaveLength(1);
  });

  it('keeps a decision and a change made at the same time, through two instances', async () => {
    const created = await apply();
    const path = `${applications}/${created.id}`;
    const answers = await Promise.all([
      decide(created.id, { status: 'approved' }),
      client.patch(path, { application: { referral: 'Both' } }),
      decide(created.id, { status: 'declined', reasons: ['incomplete'] }),
      client.patch(path, { application: { showing_agent: 'Kim' } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 201, 200]);
    const application = (await client.get(path)).body.application;
    expect(application).toMatchObject({ referral: 'Both', showing_agent: 'Kim' });
    const decisions = (await client.get(`${path}/decisions`)).body.decisions;
    expect(decisions.map((decision: { status: string }) => decision.status).sort()).toEqual(['approved', 'declined']);
    expect(application.status).toBe(decisions[0].status);
  });

  it('publishes application.decided with the status and whom it is told to, to webhooks too', async () => {
    const subscribed = await client.post('/api/v2/webhooks', { webhook: { url: receiver.url, events: ['application.decided'] } });
    expect(subscribed.status).toBe(201);
    const created = await apply();
    expect((await decide(created.id, { status: 'declined', reasons: ['income'] })).status).toBe(201);
    expect((await decide(created.id, { status: 'withdrawn' })).status).toBe(201);

    const about = () => tap.named('application.decided').filter((event) => event.data.application_id === created.id);
    await eventually('the events of the decisions', () => about().length === 2);
    const applicantIds = created.applicants.map((applicant: { id: number }) => applicant.id);
    expect(applicantIds).not.toEqual([]);
    expect(about().map((event) => event.data)).toEqual([
      { application_id: created.id, property_id: property.id, status: 'declined', applicant_ids: applicantIds },
      { application_id: created.id, property_id: property.id, status: 'withdrawn', applicant_ids: applicantIds },
    ]);
    const delivered = () =>
      receiver.received.map((request) => JSON.parse(request.body)).filter((body) => body.data.application_id === created.id);
    await eventually('the webhook deliveries', () => delivered().length === 2);
    expect(
      delivered()
        .map((body) => [body.event, body.data.status, body.data.applicant_ids])
        .sort(),
    ).toEqual([
      ['application.decided', 'declined', applicantIds],
      ['application.decided', 'withdrawn', applicantIds],
    ]);
  });

  it('filters the list on status', async () => {
    const mine = (await client.post('/api/v2/properties', { property: { name: 'Listed' } }, { key: LISTER })).body.property;
    const [a, b, c, d] = [
      await apply(LISTER, mine.id),
      await apply(LISTER, mine.id),
      await apply(LISTER, mine.id),
      await apply(LISTER, mine.id),
    ];
    expect((await decide(a.id, { status: 'approved' }, { key: LISTER })).status).toBe(201);
    expect((await decide(b.id, { status: 'declined', reasons: ['income'] }, { key: LISTER })).status).toBe(201);
    expect((await decide(c.id, { status: 'approved' }, { key: LISTER })).status).toBe(201);
    expect((await decide(c.id, { status: 'withdrawn' }, { key: LISTER })).status).toBe(201);
    const list = async (query: string) => {
      const answer = await client.get(`${applications}?${query}`, { key: LISTER });
      expect(answer.status).toBe(200);
      return answer.body.applications.map((application: { id: number; status: string }) => [application.id, application.status]);
    };
    expect(await list('limit=10')).toEqual([
      [d.id, 'draft'],
      [c.id, 'withdrawn'],
      [b.id, 'declined'],
      [a.id, 'approved'],
    ]);
    expect(await list('status=approved')).toEqual([[a.id, 'approved']]);
    expect(await list('status=withdrawn')).toEqual([[c.id, 'withdrawn']]);
    expect(await list('status=draft')).toEqual([[d.id, 'draft']]);
    expect(await list('status=submitted')).toEqual([]);
    const bad = await client.get(`${applications}?status=pending`, { key: LISTER });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'status', message: 'must be one of draft, submitted, approved, conditionally_approved, declined, withdrawn' },
    ]);
  });
});
