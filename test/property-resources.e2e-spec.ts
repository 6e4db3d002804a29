import { api, Api, expectErrorBody } from './support/http';
import { KEYS, Stack } from '../tools/stack';

/** Client 3 lists: it owns only what the list tests create. */
const LISTER = 'test-key-lister';

const properties = '/api/v2/properties';

describe('reading, listing and changing properties and floor plans', () => {
  let stack: Stack;
  let client: Api;

  beforeAll(async () => {
    // Two properties instances, so that concurrent changes of one property meet in the database.
    stack = await Stack.start({
      instances: { properties: 2 },
      env: { API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${LISTER}:3` },
    });
    client = api(stack.url);
  });

  afterAll(() => stack?.stop());

  const create = async (property: Record<string, unknown>, key?: string) => {
    const answer = await client.post(properties, { property }, { key });
    expect(answer.status).toBe(201);
    return answer.body.property;
  };

  describe('GET /api/v2/properties', () => {
    const list = (query = '', key = LISTER) => client.get(`${properties}${query}`, { key });

    /** Every page from the first, following next_cursor. */
    const allPages = async (query: string) => {
      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const separator = query ? '&' : '?';
        const answer = await list(cursor ? `${query}${separator}cursor=${encodeURIComponent(cursor)}` : query);
        expect(answer.status).toBe(200);
        expect(Object.keys(answer.body)).toEqual(['properties', 'next_cursor']);
        pages.push(answer.body.properties);
        cursor = answer.body.next_cursor;
      } while (cursor !== null && pages.length < 50);
      return pages;
    };

    it('lists the client’s live properties newest first, a page at a time, and nothing of anyone else', async () => {
      const created: any[] = [];
      for (let i = 0; i < 7; i++) created.push(await create({ name: `Listed ${i}`, available: i % 3 !== 0 }, LISTER));
      await create({ name: 'Someone else’s' }, KEYS.clientTwo);
      const deleted = created.splice(4, 1)[0];
      expect((await client.delete(`${properties}/${deleted.id}`, { key: LISTER })).status).toBe(200);

      const pages = await allPages('?limit=2');
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2]);
      const newestFirst = [...created].reverse();
      expect(pages.flat()).toEqual(newestFirst);

      const first = await list();
      expect(first.body).toEqual({ properties: newestFirst, next_cursor: null });
    });

    it('filters by availability, across pages', async () => {
      const all = (await list('?limit=100')).body.properties as any[];
      expect(all.length).toBeGreaterThan(0);
      for (const available of [true, false]) {
        const pages = await allPages(`?available=${available}&limit=1`);
        expect(pages.flat().map((p: any) => p.id)).toEqual(all.filter((p) => p.available === available).map((p) => p.id));
      }
    });

    it('shows a change of availability in the filtered lists at once', async () => {
      const property = await create({ name: 'Toggled', available: true }, LISTER);
      const ids = async (available: boolean) =>
        ((await list(`?available=${available}`)).body.properties as any[]).map((p) => p.id);
      expect(await ids(true)).toContain(property.id);
      const changed = await client.patch(`${properties}/${property.id}`, { property: { available: false } }, { key: LISTER });
      expect(changed.status).toBe(200);
      expect(await ids(true)).not.toContain(property.id);
      expect(await ids(false)).toContain(property.id);
    });

    it('lists for each client its own properties only', async () => {
      const mine = ((await list('?limit=100')).body.properties as any[]).map((p) => p.id);
      const theirs = ((await list('?limit=100', KEYS.clientTwo)).body.properties as any[]).map((p) => p.id);
      expect(mine.length).toBeGreaterThan(0);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
      for (const id of theirs) expect((await client.get(`${properties}/${id}`, { key: LISTER })).status).toBe(404);
    });

    it.each([
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=not-ours', 'cursor'],
      ['?cursor=', 'cursor'],
      ['?available=yes', 'available'],
      ['?availble=true', 'availble'],
    ])('refuses %s with a 422 naming %s', async (query, field) => {
      const answer = await list(query);
      expect(answer.status).toBe(422);
      expectErrorBody(answer);
      expect(answer.body.error.details.map((d: any) => d.field)).toEqual([field]);
    });

    it('needs an API key', async () => {
      expect((await client.get(properties, { key: null })).status).toBe(401);
    });
  });

  describe('PATCH /api/v2/properties/:id', () => {
    it('changes the fields given, keeps the rest, and answers with the full new representation', async () => {
      const property = await create({ name: 'Before', street: '1 Old St', city: 'Oldtown', manager_name: 'Old Lettings' });
      const answer = await client.patch(`${properties}/${property.id}`, {
        property: {
          name: '  After ',
          city: null,
          zip: '62701',
          manager_name: null,
          manager_phone: '217.555.0199',
          kind: 'generic',
          invitation_only: true,
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        property: {
          ...property,
          name: 'After',
          city: '',
          zip: '62701',
          manager_name: '',
          manager_phone: '2175550199',
          kind: 'generic',
          invitation_only: true,
          // A new name does not rename the floor plans.
          floor_plans: property.floor_plans,
        },
      });
      expect((await client.get(`${properties}/${property.id}`)).body).toEqual(answer.body);
    });

    it('answers an empty change with the property as it is', async () => {
      const property = await create({ name: 'Unchanged' });
      const answer = await client.patch(`${properties}/${property.id}`, { property: {} });
      expect(answer.status).toBe(200);
      expect(answer.body.property).toEqual(property);
    });

    it('refuses bad input with every problem listed, unknown fields included, and changes nothing', async () => {
      const property = await create({ name: 'Strict' });
      const answer = await client.patch(`${properties}/${property.id}`, {
        property: { name: '', kind: 'castle', available: 'yes', colour: 'red' },
      });
      expect(answer.status).toBe(422);
      expectErrorBody(answer, 'property.available must be true or false');
      expect(answer.body.error.details).toEqual([
        { field: 'property.available', message: 'must be true or false' },
        { field: 'property.kind', message: 'must be one of multi_family, single_family, generic' },
        { field: 'property.name', message: 'must not be empty' },
        { field: 'property.colour', message: 'is not a known field' },
      ]);
      for (const body of [{}, { property: null }, { property: { name: null } }, { property: {}, extra: 1 }]) {
        expect([body, (await client.patch(`${properties}/${property.id}`, body)).status]).toEqual([body, 422]);
      }
      expect((await client.get(`${properties}/${property.id}`)).body.property).toEqual(property);
    });

    it('refuses single_family while the property has several floor plans', async () => {
      const property = await create({ name: 'Two plans' });
      await client.post(`${properties}/${property.id}/floor_plans`, { floor_plan: { name: 'Second' } });
      const answer = await client.patch(`${properties}/${property.id}`, { property: { kind: 'single_family' } });
      expect(answer.status).toBe(422);
      expectErrorBody(answer, 'property.kind cannot be single_family while the property has 2 floor plans');
      expect(answer.body.error.details).toEqual([
        { field: 'property.kind', message: 'cannot be single_family while the property has 2 floor plans' },
      ]);
      const single = await create({ name: 'One plan' });
      expect((await client.patch(`${properties}/${single.id}`, { property: { kind: 'single_family' } })).status).toBe(200);
    });

    it('answers 412 to a stale If-Match and changes nothing; a current one, or *, is accepted', async () => {
      const property = await create({ name: 'Guarded' });
      const read = await client.get(`${properties}/${property.id}`);
      const tag = read.headers.get('etag')!;
      expect(tag).toMatch(/^"[\w-]+"$/);

      const first = await client.patch(
        `${properties}/${property.id}`,
        { property: { city: 'First' } },
        { headers: { 'if-match': tag } },
      );
      expect(first.status).toBe(200);
      const second = await client.patch(
        `${properties}/${property.id}`,
        { property: { city: 'Second' } },
        { headers: { 'if-match': tag } },
      );
      expect(second.status).toBe(412);
      expectErrorBody(second, /has changed since it was read/);
      expect((await client.get(`${properties}/${property.id}`)).body.property.city).toBe('First');

      const fresh = (await client.get(`${properties}/${property.id}`)).headers.get('etag')!;
      expect(fresh).not.toBe(tag);
      const third = await client.patch(
        `${properties}/${property.id}`,
        { property: { city: 'Third' } },
        { headers: { 'if-match': `"other", ${fresh}` } },
      );
      expect(third.status).toBe(200);
      expect(
        (await client.patch(`${properties}/${property.id}`, { property: { city: 'Any' } }, { headers: { 'if-match': '*' } }))
          .status,
      ).toBe(200);
    });

    it('keeps every one of many concurrent changes of two properties, made through two instances', async () => {
      const fields = {
        name: 'Raced',
        street: '9 Race St',
        city: 'Racetown',
        state: 'RC',
        zip: '99999',
        invitation_only: true,
        invitation_only_message: 'Invited only',
        available: false,
        kind: 'generic',
      };
      const targets = [await create({ name: 'Race one' }), await create({ name: 'Race two' })];
      const answers = await Promise.all(
        targets.flatMap((property) =>
          Object.entries(fields).map(([field, value]) =>
            client.patch(`${properties}/${property.id}`, { property: { [field]: value } }),
          ),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      for (const property of targets) {
        const stored = (await client.get(`${properties}/${property.id}`)).body.property;
        expect(stored).toEqual({ ...property, ...fields });
      }
      // Both instances took part.
      const updatesHandled = stack
        .running('properties')
        .map(
          (process) =>
            process.logs.filter((record) => record.msg === 'message handled' && record.pattern === 'properties.update').length,
        );
      expect(updatesHandled).toHaveLength(2);
      expect(updatesHandled.every((count) => count > 0)).toBe(true);
    });

    it('answers 404 for another client’s, a deleted, an unknown or a malformed id', async () => {
      const theirs = await create({ name: 'Theirs' }, KEYS.clientTwo);
      const gone = await create({ name: 'Gone' });
      await client.delete(`${properties}/${gone.id}`);
      for (const id of [theirs.id, gone.id, 99999999, 'abc']) {
        const answer = await client.patch(`${properties}/${id}`, { property: { name: 'Mine now' } });
        expect([id, answer.status]).toEqual([id, 404]);
        expectErrorBody(answer, `property ${id} cannot be found`);
      }
      expect((await client.get(`${properties}/${theirs.id}`, { key: KEYS.clientTwo })).body.property.name).toBe('Theirs');
    });
  });

  describe('DELETE /api/v2/properties/:id with If-Match', () => {
    it('answers 412 to a stale tag and deletes nothing, and deletes with the current one', async () => {
      const property = await create({ name: 'Conditional delete' });
      const stale = (await client.get(`${properties}/${property.id}`)).headers.get('etag')!;
      await client.patch(`${properties}/${property.id}`, { property: { zip: '11111' } });

      const refused = await client.delete(`${properties}/${property.id}`, { headers: { 'if-match': stale } });
      expect(refused.status).toBe(412);
      expectErrorBody(refused);
      expect((await client.get(`${properties}/${property.id}`)).status).toBe(200);

      const current = (await client.get(`${properties}/${property.id}`)).headers.get('etag')!;
      const deleted = await client.delete(`${properties}/${property.id}`, { headers: { 'if-match': current } });
      expect(deleted.status).toBe(200);
      expect(deleted.body.property.zip).toBe('11111');
      expect((await client.get(`${properties}/${property.id}`)).status).toBe(404);
    });

    it('lets exactly one of many concurrent deletes through two instances succeed', async () => {
      const property = await create({ name: 'Deleted once' });
      const answers = await Promise.all(Array.from({ length: 10 }, () => client.delete(`${properties}/${property.id}`)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(404)]);
    });
  });

  describe('the Floor Plans API', () => {
    const plans = (propertyId: number | string) => `${properties}/${propertyId}/floor_plans`;

    it('adds, reads, changes and deletes floor plans, each change seen in the property', async () => {
      const property = await create({ name: 'Planned' });
      const [original] = property.floor_plans;

      const added = await client.post(plans(property.id), {
        floor_plan: { name: ' Two bedroom ', beds: 2, baths: 1.5, deposit: 0, rent: 1850.5 },
      });
      expect(added.status).toBe(201);
      expect(Object.keys(added.body)).toEqual(['floor_plan']);
      const plan = added.body.floor_plan;
      expect(plan).toEqual({
        id: plan.id,
        property_id: property.id,
        name: 'Two bedroom',
        beds: 2,
        baths: 1.5,
        deposit: 0,
        rent: 1850.5,
      });
      expect(Object.keys(plan)).toEqual(['id', 'property_id', 'name', 'beds', 'baths', 'deposit', 'rent']);
      expect(plan.id).toBeGreaterThan(original.id);

      const bare = (await client.post(plans(property.id), { floor_plan: { name: 'Bare' } })).body.floor_plan;
      expect(bare).toEqual({
        id: bare.id,
        property_id: property.id,
        name: 'Bare',
        beds: null,
        baths: null,
        deposit: null,
        rent: null,
      });

      const listed = await client.get(plans(property.id));
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ floor_plans: [original, plan, bare] });
      expect((await client.get(`${properties}/${property.id}`)).body.property.floor_plans).toEqual([original, plan, bare]);

      const one = await client.get(`${plans(property.id)}/${plan.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ floor_plan: plan });

      const changed = await client.patch(`${plans(property.id)}/${plan.id}`, { floor_plan: { rent: 1900, deposit: null } });
      expect(changed.status).toBe(200);
      expect(changed.body.floor_plan).toEqual({ ...plan, rent: 1900, deposit: null });

      const removed = await client.delete(`${plans(property.id)}/${bare.id}`);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ floor_plan: bare });
      expect((await client.get(`${plans(property.id)}/${bare.id}`)).status).toBe(404);
      expect((await client.get(`${properties}/${property.id}`)).body.property.floor_plans).toEqual([
        original,
        { ...plan, rent: 1900, deposit: null },
      ]);
    });

    it('keeps a single_family property at exactly one floor plan, and every property at least one', async () => {
      const house = await create({ name: 'House', kind: 'single_family' });
      const second = await client.post(plans(house.id), { floor_plan: { name: 'Annex' } });
      expect(second.status).toBe(422);
      expectErrorBody(second, 'floor_plan cannot be added: a single_family property has exactly one floor plan');

      const last = await client.delete(`${plans(house.id)}/${house.floor_plans[0].id}`);
      expect(last.status).toBe(422);
      expectErrorBody(last, /only floor plan/);
      expect(last.body.error.details).toEqual([{ field: 'floor_plan', message: expect.stringMatching(/at least one/) }]);
      expect((await client.get(plans(house.id))).body.floor_plans).toEqual(house.floor_plans);
    });

    it('refuses bad floor plan input with every problem listed', async () => {
      const property = await create({ name: 'Validated plans' });
      const answer = await client.post(plans(property.id), {
        floor_plan: { name: 'x'.repeat(256), beds: -1, baths: '2', deposit: Infinity, rent: 'cheap', pool: true },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.error.details).toEqual([
        { field: 'floor_plan.name', message: 'must be at most 255 characters' },
        { field: 'floor_plan.beds', message: 'must be at least 0' },
        { field: 'floor_plan.baths', message: 'must be a number' },
        // JSON has no Infinity: it arrives as null, which is allowed.
        { field: 'floor_plan.rent', message: 'must be a number' },
        { field: 'floor_plan.pool', message: 'is not a known field' },
      ]);
      for (const body of [{ floor_plan: {} }, { floor_plan: { name: '  ' } }, {}]) {
        expect([body, (await client.post(plans(property.id), body)).status]).toEqual([body, 422]);
      }
      const plan = property.floor_plans[0];
      const patch = await client.patch(`${plans(property.id)}/${plan.id}`, { floor_plan: { name: null, beds: 1e9 } });
      expect(patch.status).toBe(422);
      expect(patch.body.error.details).toEqual([
        { field: 'floor_plan.name', message: 'must not be null' },
        { field: 'floor_plan.beds', message: 'must be at most 100' },
      ]);
      expect((await client.get(plans(property.id))).body.floor_plans).toEqual([plan]);
    });

    it('tags a floor plan: 304 for a current If-None-Match, 412 for a stale If-Match', async () => {
      const property = await create({ name: 'Tagged plans' });
      const path = `${plans(property.id)}/${property.floor_plans[0].id}`;
      const read = await client.get(path);
      const tag = read.headers.get('etag')!;
      expect(tag).toMatch(/^"[\w-]+"$/);
      const notModified = await client.get(path, { headers: { 'if-none-match': tag } });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');

      expect((await client.patch(path, { floor_plan: { beds: 3 } }, { headers: { 'if-match': tag } })).status).toBe(200);
      const stale = await client.patch(path, { floor_plan: { beds: 4 } }, { headers: { 'if-match': tag } });
      expect(stale.status).toBe(412);
      expect((await client.get(path, { headers: { 'if-none-match': tag } })).status).toBe(200);

      await client.post(plans(property.id), { floor_plan: { name: 'Spare' } });
      expect((await client.delete(path, { headers: { 'if-match': tag } })).status).toBe(412);
      const current = (await client.get(path)).headers.get('etag')!;
      expect((await client.delete(path, { headers: { 'if-match': current } })).status).toBe(200);
    });

    it('adds every one of many concurrent floor plans, made through two instances', async () => {
      const property = await create({ name: 'Busy plans' });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => client.post(plans(property.id), { floor_plan: { name: `Plan ${i}`, beds: i } })),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      const names = ((await client.get(plans(property.id))).body.floor_plans as any[]).map((p) => p.name).sort();
      expect(names).toEqual(['Busy plans', ...Array.from({ length: 8 }, (_, i) => `Plan ${i}`)].sort());
    });

    it('adds a floor plan once for a request repeated with its Idempotency-Key', async () => {
      const property = await create({ name: 'Repeated plans' });
      const send = () =>
        client.post(
          plans(property.id),
          { floor_plan: { name: 'Once' } },
          { headers: { 'idempotency-key': `plan-${property.id}` } },
        );
      const first = await send();
      const again = await send();
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.body).toEqual(first.body);
      expect((await client.get(plans(property.id))).body.floor_plans).toHaveLength(2);
    });

    it('answers 404 for another client’s property, a deleted one, and unknown or malformed ids, everywhere', async () => {
      const theirs = await create({ name: 'Their plans' }, KEYS.clientTwo);
      const gone = await create({ name: 'Gone plans' });
      await client.delete(`${properties}/${gone.id}`);
      for (const property of [theirs, gone]) {
        const planPath = `${plans(property.id)}/${property.floor_plans[0].id}`;
        for (const answer of [
          await client.get(plans(property.id)),
          await client.post(plans(property.id), { floor_plan: { name: 'Intruder' } }),
          await client.get(planPath),
          await client.patch(planPath, { floor_plan: { name: 'Intruder' } }),
          await client.delete(planPath),
        ]) {
          expect(answer.status).toBe(404);
          expectErrorBody(answer, `property ${property.id} cannot be found`);
        }
      }
      expect((await client.get(plans(theirs.id), { key: KEYS.clientTwo })).body.floor_plans).toEqual(theirs.floor_plans);

      const mine = await create({ name: 'My plans' });
      // A floor plan of another property of the same client is not one of this property's.
      const elsewhere = (await create({ name: 'Other plans' })).floor_plans[0].id;
      for (const id of [elsewhere, 99999999, 'x1']) {
        const answer = await client.get(`${plans(mine.id)}/${id}`);
        expect([id, answer.status]).toEqual([id, 404]);
        expectErrorBody(answer, `floor plan ${id} cannot be found`);
        expect((await client.patch(`${plans(mine.id)}/${id}`, { floor_plan: { beds: 1 } })).status).toBe(404);
        expect((await client.delete(`${plans(mine.id)}/${id}`)).status).toBe(404);
      }
      expect((await client.get(plans('nope'))).status).toBe(404);
    });
  });
});
