import { Browser, Page } from 'playwright-core';
import { KEYS, Stack } from '../tools/stack';
import { launchBrowser, mainText, submit } from './support/browser';
import { EventTap } from './support/events';
import { fillSections, startToIdentity } from './support/form-steps';
import { Api, api, expectErrorBody } from './support/http';
import { eventually } from './support/wait';

const PRESETS = '/api/v2/form_presets';
const PRESET_FIELDS = ['id', 'version', 'default', 'name', 'questions', 'disclosures', 'sections', 'documents'];

const EVICTED = { id: 'evicted', label: 'Have you been evicted in the last seven years?', kind: 'yes_no', required: true };
const EXPLAIN = {
  id: 'eviction_details',
  label: 'Explain the eviction',
  kind: 'text',
  help: 'When, where and why.',
  when: { question: 'evicted', answer: true },
};
const PARKING = {
  id: 'parking',
  label: 'Parking spaces wanted',
  kind: 'choice',
  options: ['None', 'One', 'Two'],
  required: true,
};

/**
 * Clients' own form presets over HTTP, RabbitMQ and the properties service's database: versions,
 * tenancy, the shipped presets, properties that name presets, and the form that shows them.
 */
describe('form presets', () => {
  let stack: Stack;
  let client: Api;
  let browser: Browser;
  let events: EventTap;

  beforeAll(async () => {
    stack = await Stack.start({ form: true, env: { FORM_RATE_LIMIT_PER_MINUTE: '1000000' } });
    client = api(stack.url);
    browser = await launchBrowser();
    events = await EventTap.open(stack.namespace);
  });

  afterAll(async () => {
    await events?.close();
    await browser?.close();
    await stack?.stop();
  });

  const create = async (preset: Record<string, unknown>, key?: string) => {
    const answer = await client.post(PRESETS, { form_preset: preset }, { key });
    expect(answer.status).toBe(201);
    return answer.body.form_preset;
  };

  it('creates a preset at version 1 with every field, and reads it back', async () => {
    const answer = await client.post(PRESETS, {
      form_preset: {
        name: ' Screening plus ',
        questions: [EVICTED, EXPLAIN, PARKING],
        disclosures: [{ id: 'parking_rules', title: 'Parking', text: 'Spaces are assigned by the office.' }],
        sections: [{ kind: 'identity' }, { kind: 'residence_history', years: 3, max_gap_days: 60 }, { kind: 'questions' }],
        documents: [{ kind: 'photo_id', required: true }],
      },
    });

    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body)).toEqual(['form_preset']);
    const preset = answer.body.form_preset;
    expect(Object.keys(preset)).toEqual(PRESET_FIELDS);
    expect(preset).toEqual({
      id: preset.id,
      version: 1,
      default: false,
      name: 'Screening plus',
      questions: [EVICTED, { ...EXPLAIN, required: false }, { ...PARKING, multiple: false }],
      disclosures: [{ id: 'parking_rules', title: 'Parking', text: 'Spaces are assigned by the office.' }],
      sections: [{ kind: 'identity' }, { kind: 'residence_history', years: 3, max_gap_days: 60 }, { kind: 'questions' }],
      documents: [{ kind: 'photo_id', required: true }],
    });
    expect(preset.id).toBeGreaterThan(100);

    const read = await client.get(`${PRESETS}/${preset.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ form_preset: preset });
    expect(read.headers.get('etag')).toBeTruthy();
  });

  it('makes each update a new version and keeps version 1 readable with its old questions', async () => {
    const preset = await create({ name: 'Versions', questions: [EVICTED] });
    const path = `${PRESETS}/${preset.id}`;

    const updated = await client.patch(path, { form_preset: { questions: [EVICTED, EXPLAIN] } });
    expect(updated.status).toBe(200);
    expect(updated.body.form_preset).toMatchObject({ id: preset.id, version: 2, name: 'Versions' });
    expect(updated.body.form_preset.questions.map((q: { id: string }) => q.id)).toEqual(['evicted', 'eviction_details']);

    const renamed = await client.patch(path, { form_preset: { name: 'Versions, renamed' } });
    expect(renamed.body.form_preset).toMatchObject({ version: 3, name: 'Versions, renamed' });

    expect((await client.get(path)).body.form_preset).toEqual(renamed.body.form_preset);
    const first = await client.get(`${path}?version=1`);
    expect(first.status).toBe(200);
    expect(first.body.form_preset).toEqual(preset);
    expect((await client.get(`${path}?version=2`)).body.form_preset).toEqual(updated.body.form_preset);

    const later = await client.get(`${path}?version=4`);
    expect(later.status).toBe(404);
    expectErrorBody(later, `form preset ${preset.id} version 4 cannot be found`);
    const bad = await client.get(`${path}?version=zero&colour=red`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      { field: 'version', message: 'must be a positive integer' },
      { field: 'colour', message: 'is not a known query parameter' },
    ]);
  });

  it('keeps every one of several updates made at once, each its own version', async () => {
    const preset = await create({ name: 'Raced' });
    const names = Array.from({ length: 8 }, (_, i) => `Raced ${i}`);
    const answers = await Promise.all(names.map((name) => client.patch(`${PRESETS}/${preset.id}`, { form_preset: { name } })));
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200));
    expect(answers.map((answer) => answer.body.form_preset.version).sort((a, b) => a - b)).toEqual(names.map((_, i) => i + 2));
    const versions = await Promise.all(names.map((_, i) => client.get(`${PRESETS}/${preset.id}?version=${i + 2}`)));
    expect(versions.map((answer) => answer.body.form_preset.name).sort()).toEqual([...names].sort());
  });

  it('lists the client’s own presets, newest first, then the shipped ones, a page at a time', async () => {
    const theirs = await create({ name: 'Client two’s' }, KEYS.clientTwo);
    const mine = await create({ name: 'Listed' });

    const first = await client.get(`${PRESETS}?limit=1`);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['form_presets', 'next_cursor']);
    expect(first.body.form_presets).toEqual([mine]);

    const all: Array<{ id: number; default: boolean }> = [];
    for (let cursor: string | null = null, pages = 0; pages < 20; pages++) {
      const page = await client.get(`${PRESETS}?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.body.form_presets);
      cursor = page.body.next_cursor;
      if (cursor === null) break;
    }
    expect(all.map((preset) => preset.id)).not.toContain(theirs.id);
    expect(all.slice(-2).map((preset) => [preset.id, preset.default])).toEqual([
      [2, true],
      [1, true],
    ]);
    const own = all.filter((preset) => !preset.default).map((preset) => preset.id);
    expect(own).toEqual([...own].sort((a, b) => b - a));

    const bad = await client.get(`${PRESETS}?limit=0`);
    expect(bad.status).toBe(422);
    expectErrorBody(bad, 'limit must be an integer from 1 to 100');
  });

  it('hides another client’s preset: 404 on every operation, and 422 when a property names it', async () => {
    const theirs = await create({ name: 'Private' }, KEYS.clientTwo);
    const path = `${PRESETS}/${theirs.id}`;
    for (const answer of [
      await client.get(path),
      await client.get(`${path}?version=1`),
      await client.patch(path, { form_preset: { name: 'Mine now' } }),
      await client.delete(path),
    ]) {
      expect(answer.status).toBe(404);
      expectErrorBody(answer, `form preset ${theirs.id} cannot be found`);
    }
    expect((await client.get(path, { key: KEYS.clientTwo })).body.form_preset.name).toBe('Private');

    const property = await client.post('/api/v2/properties', { property: { name: 'Borrowing', form_preset_id: theirs.id } });
    expect(property.status).toBe(422);
    expectErrorBody(
      property,
      `property.form_preset_id must name one of your form presets or a shipped one: form preset ${theirs.id} cannot be found`,
    );
    expect(property.body.error.details).toEqual([
      {
        field: 'property.form_preset_id',
        message: `must name one of your form presets or a shipped one: form preset ${theirs.id} cannot be found`,
      },
    ]);
    for (const id of [999_999, 50]) {
      expect((await client.post('/api/v2/properties', { property: { name: 'Unknown', form_preset_id: id } })).status).toBe(422);
    }
    const kept = (await client.post('/api/v2/properties', { property: { name: 'Kept' } })).body.property;
    const changed = await client.patch(`/api/v2/properties/${kept.id}`, { property: { form_preset_id: theirs.id } });
    expect(changed.status).toBe(422);
    expect((await client.get(`/api/v2/properties/${kept.id}`)).body.property.form_preset_id).toBe(1);
  });

  it('offers the shipped presets read-only to every client', async () => {
    for (const key of [KEYS.clientOne, KEYS.clientTwo]) {
      const shipped = await client.get(`${PRESETS}/1`, { key });
      expect(shipped.status).toBe(200);
      expect(shipped.body.form_preset).toMatchObject({ id: 1, version: 1, default: true, name: 'Standard residential' });
    }
    const changed = await client.patch(`${PRESETS}/1`, { form_preset: { name: 'Mine' } });
    expect(changed.status).toBe(409);
    expectErrorBody(changed, 'form preset 1 ships with the service and cannot be changed; create a preset of your own instead');
    const deleted = await client.delete(`${PRESETS}/2`);
    expect(deleted.status).toBe(409);
    expectErrorBody(deleted, 'form preset 2 ships with the service and cannot be deleted; create a preset of your own instead');
    expect((await client.get(`${PRESETS}/1`)).body.form_preset.name).toBe('Standard residential');
    expect((await client.get(`${PRESETS}/1?version=2`)).status).toBe(404);
  });

  it('refuses to delete a preset a property names (409), and deletes it once none does (204)', async () => {
    const preset = await create({ name: 'In use' });
    const property = (await client.post('/api/v2/properties', { property: { name: 'User', form_preset_id: preset.id } })).body
      .property;
    expect(property.form_preset_id).toBe(preset.id);

    const refused = await client.delete(`${PRESETS}/${preset.id}`);
    expect(refused.status).toBe(409);
    expectErrorBody(
      refused,
      `form preset ${preset.id} is the form_preset_id of property ${property.id}; give that property another preset before deleting it`,
    );

    const moved = await client.patch(`/api/v2/properties/${property.id}`, { property: { form_preset_id: 2 } });
    expect(moved.status).toBe(200);
    expect(moved.body.property.form_preset_id).toBe(2);
    const deleted = await client.delete(`${PRESETS}/${preset.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await client.get(`${PRESETS}/${preset.id}`)).status).toBe(404);
    expect((await client.delete(`${PRESETS}/${preset.id}`)).status).toBe(404);
    const naming = await client.post('/api/v2/properties', { property: { name: 'Too late', form_preset_id: preset.id } });
    expect(naming.status).toBe(422);
  });

  it('publishes form_preset.created, updated and deleted, naming the preset, and nothing for a refused change', async () => {
    const preset = await create({ name: 'Eventful' });
    expect((await client.patch(`${PRESETS}/${preset.id}`, { form_preset: { name: 'Eventful, changed' } })).status).toBe(200);
    expect((await client.patch(`${PRESETS}/${preset.id}`, { form_preset: { name: 'Eventful, changed' } })).status).toBe(200);
    expect((await client.patch(`${PRESETS}/1`, { form_preset: { name: 'Mine' } })).status).toBe(409);
    expect((await client.delete(`${PRESETS}/${preset.id}`)).status).toBe(204);

    const about = (name: string) => events.named(name).filter((event) => event.data.form_preset_id === preset.id);
    await eventually('the preset’s three events', () =>
      ['form_preset.created', 'form_preset.updated', 'form_preset.deleted'].every((name) => about(name).length > 0),
    );
    for (const name of ['form_preset.created', 'form_preset.updated', 'form_preset.deleted']) {
      // A change that changed nothing, and one refused, publish nothing.
      expect(about(name).map((event) => event.data)).toEqual([{ form_preset_id: preset.id }]);
    }
    expect(events.named('form_preset.updated').filter((event) => event.data.form_preset_id === 1)).toEqual([]);
  });

  it('refuses an invalid preset with 422, naming each field', async () => {
    const answer = await client.post(PRESETS, {
      form_preset: {
        name: 'Broken',
        questions: [
          { id: 'colour', label: 'Colour', kind: 'colour' },
          { id: 'pets', label: 'Pets', kind: 'choice' },
          { id: 'details', label: 'Details', kind: 'text', when: { question: 'later', answer: true } },
          { id: 'details', label: 'Again', kind: 'text', options: ['a'] },
        ],
        sections: [{ kind: 'questions' }, { kind: 'questions' }, { kind: 'employment', years: 2, max_gap_days: 10 }],
        extra: true,
      },
    });
    expect(answer.status).toBe(422);
    expectErrorBody(answer);
    expect(answer.body.error.details).toEqual([
      { field: 'form_preset.questions.0.kind', message: expect.stringMatching(/^must be one of text, yes_no, choice/) },
      { field: 'form_preset.questions.1.options', message: 'is required for a choice question' },
      { field: 'form_preset.questions.3.options', message: 'is only for choice questions' },
      { field: 'form_preset.sections.2.years', message: 'is only for the residence_history section' },
      { field: 'form_preset.sections.2.max_gap_days', message: 'is only for the residence_history section' },
      { field: 'form_preset.questions.2.when.question', message: 'must name an earlier question of the preset' },
      { field: 'form_preset.questions.3.id', message: 'must not repeat the id of an earlier question' },
      { field: 'form_preset.sections.1.kind', message: 'must not repeat an earlier section' },
      { field: 'form_preset.extra', message: 'is not a known field' },
    ]);
    expect(answer.body.error.message).toBe(`${answer.body.error.details[0].field} ${answer.body.error.details[0].message}`);
  });

  it('keeps a started application on the preset version it was filled with; a new one gets the changed preset', async () => {
    const preset = await create({ name: 'On the form', questions: [EVICTED, EXPLAIN, PARKING] });
    const property = (
      await client.post('/api/v2/properties', {
        property: { name: 'Preset Place', kind: 'single_family', form_preset_id: preset.id },
      })
    ).body.property;
    const PETS = { id: 'pets', label: 'Which pets will live with you?', kind: 'text' };

    /** Step 1 at the property in a page of its own; the applicant's form_url. */
    const startForm = async (page: Page, email: string): Promise<string> => {
      await page.goto(property.application_url);
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Phone number').fill('(555) 010-1234');
      await submit(page, /\/details$/);
      return page.url().replace(/\/details$/, '');
    };
    /** The labels of the preset's questions a form_url asks, and whether it has an employment step. */
    const asked = async (page: Page, formUrl: string) => {
      await page.goto(`${formUrl}/questions`);
      const shown: string[] = [];
      for (const question of [EVICTED, PARKING, PETS])
        if ((await page.getByText(question.label).count()) > 0) shown.push(question.id);
      const employment = await page.goto(`${formUrl}/employment`);
      return { questions: shown, employment: employment!.status() };
    };

    const started: Page = await browser.newPage();
    const later: Page = await browser.newPage();
    const visited: Page = await browser.newPage();
    try {
      const startedUrl = await startForm(started, 'ada@example.com');
      expect(await asked(started, startedUrl)).toEqual({ questions: ['evicted', 'parking'], employment: 404 });
      // It saves the unit and its identity: version 1 asks its questions next.
      await started.goto(`${startedUrl}/details`);
      await submit(started, /\/identity$/);
      await started.getByLabel('Date of birth').fill('1990-04-12');
      await started.getByLabel('Social security number').fill('123-45-6789');
      await submit(started, /\/questions$/);
      // An applicant created through the API takes the version current at its first visit.
      const created = await client.post('/api/v2/applications', {
        application: {
          property_id: property.id,
          applicant: { first_name: 'Mary', last_name: 'Jackson', email: 'mj@example.com' },
        },
      });
      const applicantPath = new URL(created.body.application.applicants[0].api_url).pathname;
      const visitedUrl = (await client.get(applicantPath)).body.applicant.form_url;
      await visited.goto(visitedUrl);

      const changed = await client.patch(`${PRESETS}/${preset.id}`, {
        form_preset: { questions: [PETS], sections: [{ kind: 'employment' }, { kind: 'questions' }] },
      });
      expect(changed.body.form_preset.version).toBe(2);

      // The started application keeps version 1's questions and steps, and so does the one visited ...
      expect(await asked(started, startedUrl)).toEqual({ questions: ['evicted', 'parking'], employment: 404 });
      // Its form_url resumes it there too, not at version 2's employment step (which it is not asked).
      const resumed = await started.goto(startedUrl);
      expect({ path: new URL(started.url()).pathname, status: resumed!.status() }).toEqual({
        path: new URL(`${startedUrl}/questions`).pathname,
        status: 200,
      });
      await visited.getByLabel('Phone number').fill('555 020 3000');
      await submit(visited, /\/details$/);
      expect(await asked(visited, visitedUrl)).toEqual({ questions: ['evicted', 'parking'], employment: 404 });
      // ... while one started now is filled with version 2.
      const laterUrl = await startForm(later, 'grace@example.com');
      expect(await asked(later, laterUrl)).toEqual({ questions: ['pets'], employment: 200 });
    } finally {
      await started.close();
      await later.close();
      await visited.close();
    }
  });

  it('shows a preset’s own labels, options, help and disclosures as text, never as markup', async () => {
    const hostile = (field: string) => `<img src=x onerror=alert('${field}')>`;
    const preset = await create({
      name: 'Hostile',
      questions: [
        {
          id: 'parking',
          label: hostile('label'),
          kind: 'choice',
          multiple: true,
          options: [hostile('option'), 'None'],
          help: hostile('help'),
        },
      ],
      disclosures: [{ id: 'rules', title: hostile('title'), text: hostile('text') }],
    });
    const property = (
      await client.post('/api/v2/properties', {
        property: { name: 'Hostile House', kind: 'single_family', form_preset_id: preset.id },
      })
    ).body.property;

    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await startToIdentity(page, property.application_url, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'hostile@example.com',
      });
      const shown: string[] = [];
      await fillSections(page, 'Ada Lovelace', {
        questions: async () => {
          shown.push(await mainText(page));
          await page
            .getByRole('group', { name: `${hostile('label')} (optional)` })
            .getByLabel(hostile('option'))
            .check();
        },
      });
      shown.push(await mainText(page));
      await submit(page, /\/done$/);

      expect(shown[0]).toContain(hostile('label'));
      expect(shown[0]).toContain(hostile('option'));
      expect(shown[0]).toContain(hostile('help'));
      expect(shown[1]).toContain(hostile('title'));
      expect(shown[1]).toContain(hostile('text'));
      expect(dialogs).toEqual([]);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
