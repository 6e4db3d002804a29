import { applyAsAda, startApplicationStack, stopApplicationStack } from './support/application-stack';
import { Api, expectErrorBody } from './support/http';
import { EventTap } from './support/events';
import { eventually } from './support/wait';
import { WebhookReceiver } from './support/webhook-receiver';
import { KEYS, Stack } from '../tools/stack';

/** Client 3 lists: it owns only what the list tests create. */
const LISTER = 'test-key-app-lister';
const applications = '/api/v2/applications';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('changing applications, and filtering the list', () => {
  let stack: Stack;
  let client: Api;
  let tap: EventTap;
  let receiver: WebhookReceiver;
  let property: { id: number; floor_plans: Array<{ id: number }> };

  beforeAll(async () => {
    ({ stack, client, tap, receiver, property } = await startApplicationStack(LISTER, 'Changing Court'));
  });

  afterAll(() => stopApplicationStack({ receiver, tap, stack }));

  const apply = (key?: string, propertyId = property.id) => applyAsAda(client, propertyId, key);

  describe('PATCH /api/v2/applications/:id', () => {
    it('changes the fields given, keeps the rest, and answers with the full new representation', async () => {
      const created = await apply();
      const changes = {
        assigned_user_id: '42',
        floor_plan_id: property.floor_plans[0].id,
        desired_unit_number: ' 4B ',
        desired_unit_description: 'Top floor',
        desired_lease_length: 12,
        desired_move_in: '01/15/2027',
        user_specified_rent: 1900,
        showing_agent: 'Sam Lee',
        showing_agent_id: 7,
        referral: 'Newspaper',
      };
      const answer = await client.patch(`${applications}/${created.id}`, { application: changes });
      expect(answer.status).toBe(200);
      const { updated_at: updatedAt, ...rest } = answer.body.application;
      expect(rest).toEqual({
        ...created,
        ...changes,
        assigned_user_id: 42,
        desired_unit_number: '4B',
        desired_move_in: '2027-01-15',
        // The floor plan chosen has no rent: the application is judged against the one given.
        rent: 1900,
        updated_at: undefined,
      });
      expect(updatedAt).toMatch(TIMESTAMP);
      expect(Object.keys(answer.body.application)).toEqual(Object.keys(created));
      expect((await client.get(`${applications}/${created.id}`)).body).toEqual(answer.body);

      const unset = await client.patch(`${applications}/${created.id}`, { application: { referral: null, floor_plan_id: null } });
      expect(unset.status).toBe(200);
      expect(unset.body.application).toMatchObject({ referral: null, floor_plan_id: null, showing_agent: 'Sam Lee' });
    });

    it('answers an empty change with the application as it is', async () => {
      const created = await apply();
      const answer = await client.patch(`${applications}/${created.id}`, { application: {} });
      expect(answer.status).toBe(200);
      expect(answer.body.application).toEqual(created);
    });

    it('archives, holding the time it was archived, and restores', async () => {
      const created = await apply();
      const archived = await client.patch(`${applications}/${created.id}`, { application: { archived: true } });
      expect(archived.status).toBe(200);
      expect(archived.body.application.archived).toMatch(TIMESTAMP);
      const again = await client.patch(`${applications}/${created.id}`, { application: { archived: true } });
      expect(again.body.application.archived).toBe(archived.body.application.archived);
      const restored = await client.patch(`${applications}/${created.id}`, { application: { archived: false } });
      expect(restored.status).toBe(200);
      expect(restored.body.application.archived).toBeNull();
    });

    it('refuses bad input with every problem listed, unknown fields included, and changes nothing', async () => {
      const created = await apply();
      const answer = await client.patch(`${applications}/${created.id}`, {
        application: { desired_lease_length: 0, archived: 'yes', desired_move_in: '02/30/2027', property_id: 2, pets: 1 },
      });
      expect(answer.status).toBe(422);
      expectErrorBody(answer, 'application.desired_lease_length must be at least 1');
      expect(answer.body.error.details).toEqual([
        { field: 'application.desired_lease_length', message: 'must be at least 1' },
        { field: 'application.desired_move_in', message: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' },
        { field: 'application.archived', message: 'must be true or false' },
        { field: 'application.property_id', message: 'is not a known field' },
        { field: 'application.pets', message: 'is not a known field' },
      ]);
      for (const body of [{}, { application: null }, { application: { archived: null } }, { application: {}, extra: 1 }]) {
        const refused = await client.patch(`${applications}/${created.id}`, body);
        expect([body, refused.status]).toEqual([body, 422]);
        expectErrorBody(refused);
      }
      expect((await client.get(`${applications}/${created.id}`)).body.application).toEqual(created);
    });

    it('refuses a floor plan that is not one of the application’s property', async () => {
      const created = await apply();
      const other = (await client.post('/api/v2/properties', { property: { name: 'Elsewhere' } })).body.property;
      for (const floorPlanId of [other.floor_plans[0].id, 999999]) {
        const answer = await client.patch(`${applications}/${created.id}`, { application: { floor_plan_id: floorPlanId } });
        expect(answer.status).toBe(422);
        expectErrorBody(answer, `application.floor_plan_id must be a floor plan of property ${property.id}`);
        expect(answer.body.error.details).toEqual([
          { field: 'application.floor_plan_id', message: `must be a floor plan of property ${property.id}` },
        ]);
      }
      expect((await client.get(`${applications}/${created.id}`)).body.application).toEqual(created);
    });

    it('answers 412 to a stale If-Match and changes nothing; a current one, or *, is accepted', async () => {
      const created = await apply();
      const path = `${applications}/${created.id}`;
      const tag = (await client.get(path)).headers.get('etag')!;
      const first = await client.patch(path, { application: { referral: 'First' } }, { headers: { 'if-match': tag } });
      expect(first.status).toBe(200);
      const second = await client.patch(path, { application: { referral: 'Second' } }, { headers: { 'if-match': tag } });
      expect(second.status).toBe(412);
      expectErrorBody(second, /has changed since it was read/);
      expect((await client.get(path)).body.application.referral).toBe('First');

      const fresh = (await client.get(path)).headers.get('etag')!;
      const third = await client.patch(
        path,
        { application: { referral: 'Third' } },
        { headers: { 'if-match': `"x", ${fresh}` } },
      );
      expect(third.status).toBe(200);
      expect((await client.patch(path, { application: { referral: 'Any' } }, { headers: { 'if-match': '*' } })).status).toBe(200);
    });

    it('keeps every one of many concurrent changes, and co-applicants added meanwhile, made through two instances', async () => {
      const created = await apply();
      const path = `${applications}/${created.id}`;
      const fields = {
        assigned_user_id: 5,
        desired_unit_number: '9',
        desired_unit_description: 'Any',
        desired_lease_length: 6,
        desired_move_in: '2027-03-01',
        user_specified_rent: 2100,
        showing_agent: 'Kim',
        showing_agent_id: 3,
        referral: 'Web',
      };
      const coApplicant = { first_name: 'Bea', last_name: 'Lee', email: 'bea@example.com' };
      const answers = await Promise.all([
        ...Object.entries(fields).map(([field, value]) => client.patch(path, { application: { [field]: value } })),
        client.post(`${path}/applicants`, { applicant: coApplicant }),
        client.post(`${path}/applicants`, { applicant: coApplicant }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([...Object.keys(fields).map(() => 200), 201, 201]);
      const stored = (await client.get(path)).body.application;
      expect(stored).toMatchObject(fields);
      expect(stored.applicants).toHaveLength(3);
      const handled = stack
        .running('applications')
        .map(
          (process) =>
            process.logs.filter((log) => log.msg === 'message handled' && log.pattern === 'applications.update').length,
        );
      expect(handled.every((count) => count > 0)).toBe(true);
    });

    it('answers 404 for another client’s, an unknown or a malformed id', async () => {
      const mine = await apply();
      for (const [id, key] of [
        [mine.id, KEYS.clientTwo],
        [999999, undefined],
        ['abc', undefined],
        ['0', undefined],
      ] as const) {
        const answer = await client.patch(`${applications}/${id}`, { application: { referral: 'x' } }, { key });
        expect(answer.status).toBe(404);
        expectErrorBody(answer, `application ${id} cannot be found`);
      }
      expect((await client.get(`${applications}/${mine.id}`)).body.application).toEqual(mine);
    });
  });

  describe('events of a change', () => {
    it('publishes application.updated naming the changed fields, application.archived and application.restored, to webhooks too', async () => {
      const subscribed = await client.post('/api/v2/webhooks', {
        webhook: { url: receiver.url, events: ['application.updated', 'application.archived', 'application.restored'] },
      });
      expect(subscribed.status).toBe(201);
      const created = await apply();
      const path = `${applications}/${created.id}`;
      const change = { referral: 'Web', showing_agent: 'Kim', user_specified_rent: 1200, desired_unit_number: null };
      expect((await client.patch(path, { application: change })).status).toBe(200);
      // The same values again change nothing and publish nothing.
      expect((await client.patch(path, { application: { referral: 'Web' } })).status).toBe(200);
      expect((await client.patch(path, { application: { archived: true } })).status).toBe(200);
      expect((await client.patch(path, { application: { archived: false } })).status).toBe(200);

      const ids = { application_id: created.id, property_id: property.id };
      const about = (name: string) => tap.named(name).filter((event) => event.data.application_id === created.id);
      await eventually('the events of the changes', () => about('application.restored').length === 1);
      expect(about('application.updated').map((event) => event.data)).toEqual([
        { ...ids, changed_fields: ['user_specified_rent', 'showing_agent', 'referral'] },
      ]);
      expect(about('application.archived').map((event) => event.data)).toEqual([ids]);
      expect(about('application.restored').map((event) => event.data)).toEqual([ids]);

      const delivered = () =>
        receiver.received
          .map((request) => JSON.parse(request.body))
          .filter((body) => body.data.application_id === created.id)
          .map((body) => body.event)
          .sort();
      await eventually('the webhook deliveries', () => delivered().length === 3);
      expect(delivered()).toEqual(['application.archived', 'application.restored', 'application.updated']);
    });
  });

  describe('GET /api/v2/applications filtered', () => {
    let mine: { id: number };

    beforeAll(async () => {
      mine = (await client.post('/api/v2/properties', { property: { name: 'Listed' } }, { key: LISTER })).body.property;
    });
    const list = async (query: string) => {
      const answer = await client.get(`${applications}?${query}`, { key: LISTER });
      expect(answer.status).toBe(200);
      return answer.body as { applications: Array<{ id: number }>; next_cursor: string | null };
    };
    const all = async (query: string) => {
      const ids: number[] = [];
      let pages = 0;
      for (let cursor: string | null = ''; cursor !== null; pages++) {
        const page = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
        ids.push(...page.applications.map((application) => application.id));
        cursor = page.next_cursor;
      }
      return { ids, pages };
    };

    it('leaves archived applications out unless asked, and filters by assignee, form status and time of change', async () => {
      const made: number[] = [];
      for (let i = 0; i < 8; i++) made.push((await apply(LISTER, mine.id)).id);
      const [a, b, c, d] = made;
      const patch = (id: number, application: Record<string, unknown>) =>
        client.patch(`${applications}/${id}`, { application }, { key: LISTER });
      expect((await patch(a, { archived: true })).status).toBe(200);
      expect((await patch(b, { archived: true, assigned_user_id: 9 })).status).toBe(200);
      expect((await patch(c, { assigned_user_id: 9 })).status).toBe(200);
      const newest = [...made].reverse();

      expect((await all('limit=3')).ids).toEqual(newest.filter((id) => id !== a && id !== b));
      expect((await all('limit=3&archived=false')).ids).toEqual(newest.filter((id) => id !== a && id !== b));
      expect((await all('archived=true')).ids).toEqual([b, a]);
      expect((await all('archived=all')).ids).toEqual(newest);
      expect((await all('assigned_user_id=9')).ids).toEqual([c]);
      expect((await all('assigned_user_id=9&archived=all')).ids).toEqual([c, b]);
      expect((await all(`property_id=${mine.id}&archived=true&limit=1`)).ids).toEqual([b, a]);
      expect((await all('form_status=not_started')).ids).toEqual(newest.filter((id) => id !== a && id !== b));
      expect((await all('form_status=completed')).ids).toEqual([]);

      // The time of the last change, as the answer gave it, passed back (its + encoded).
      const since = (await patch(d, { referral: 'Sync' })).body.application.updated_at as string;
      const changed = (await all(`updated_since=${encodeURIComponent(since)}&archived=all`)).ids;
      expect(changed).toContain(d);
      expect((await all('updated_since=2000-01-01&archived=all')).ids).toEqual(newest);
      expect((await all('updated_since=2999-01-01T00:00:00Z')).ids).toEqual([]);
    });

    it('pages a sparse filter newest first with cursors, each page short of limit at worst', async () => {
      const made: number[] = [];
      for (let i = 0; i < 12; i++) made.push((await apply(LISTER, mine.id)).id);
      for (const id of [made[1], made[6], made[10]]) {
        expect(
          (await client.patch(`${applications}/${id}`, { application: { assigned_user_id: 77 } }, { key: LISTER })).status,
        ).toBe(200);
      }
      const { ids, pages } = await all('assigned_user_id=77&limit=1');
      expect(ids).toEqual([made[10], made[6], made[1]]);
      // The third page is full with positions left below it, so an empty fourth one ends the list.
      expect(pages).toBe(4);
      expect((await all('assigned_user_id=77&limit=2')).ids).toEqual([made[10], made[6], made[1]]);
    });

    it('refuses a bad filter value with every problem named', async () => {
      const answer = await client.get(`${applications}?archived=yes&form_status=done&assigned_user_id=0&updated_since=today`);
      expect(answer.status).toBe(422);
      expectErrorBody(answer, 'archived must be one of false, true, all');
      expect(answer.body.error.details.map((problem: { field: string }) => problem.field)).toEqual([
        'archived',
        'form_status',
        'assigned_user_id',
        'updated_since',
      ]);
    });
  });
});
