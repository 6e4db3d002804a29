import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { formTokenDigest } from '@app/crypto';
import { Stack } from '../tools/stack';
import { launchBrowser, mainText, submit } from './support/browser';
import { fillSections, startToIdentity } from './support/form-steps';
import { Api, api } from './support/http';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** `UPDATE_FORM_SCREENSHOTS=1` writes each step's screenshot into docs/form/ (docs/integrators/form.md shows one). */
const SCREENSHOTS = process.env.UPDATE_FORM_SCREENSHOTS === '1' ? join(__dirname, '..', 'docs', 'form') : null;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * How the form's pages work for people: framed on a landlord's site, with a keyboard alone, on a
 * 375 px wide phone, and for assistive technology (axe-core finds no serious or critical
 * violation on any page). Real browser, real stack.
 */
describe('the application form’s pages', () => {
  let stack: Stack;
  let client: Api;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await Stack.start({
      form: true,
      // The pages of an e-mail's links ask it.
      instances: { notifications: 1 },
      env: { FORM_RATE_LIMIT_PER_MINUTE: '1000000', FORM_REQUEST_RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    client = api(stack.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  async function createProperty(property: Record<string, unknown>): Promise<Record<string, any>> {
    const created = await client.post('/api/v2/properties', { property });
    expect(created.status).toBe(201);
    return created.body.property;
  }

  /** axe-core's serious and critical violations on the page as it is now. */
  async function seriousViolations(): Promise<string[]> {
    // Evaluated through the DevTools protocol: the page's CSP (its own script only) does not apply.
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate<AxeViolation[]>('axe.run().then((result) => result.violations)');
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
      );
  }

  async function noHorizontalScroll(): Promise<void> {
    const { scrollWidth, clientWidth } = await page.evaluate<{ scrollWidth: number; clientWidth: number }>(
      '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
    );
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }

  /** Checks the page as a phone shows it and as axe sees it; records it when screenshots are wanted. */
  async function checkPage(name: string): Promise<void> {
    await noHorizontalScroll();
    expect(await seriousViolations()).toEqual([]);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('reports its health and metrics on its own operator port, apart from the pages', async () => {
    const operations = stack.process('form').httpUrl;
    expect(operations).not.toBe(stack.formUrl);
    const ready = await fetch(`${operations}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      info: { broker: { status: 'up' }, properties: { status: 'up' }, applications: { status: 'up' } },
    });
    expect(await (await fetch(`${operations}/metrics`)).text()).toContain('service="form"');
    expect((await fetch(`${stack.formUrl}/health/ready`)).status).toBe(404);
  });

  it('keeps its pages out of search indexes, describes them, and shows an icon the browser loads', async () => {
    const property = await createProperty({ name: 'Indexless Court' });
    await page.goto(property.application_url);
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toBe('noindex, nofollow');
    expect(await page.getAttribute('meta[name="description"]', 'content')).toBe('Apply online to rent Indexless Court.');
    const icon = await page.getAttribute('link[rel="icon"]', 'href');
    const answer = await page.request.get(new URL(icon!, page.url()).toString());
    expect([answer.status(), answer.headers()['content-type']]).toEqual([200, 'image/svg+xml']);
    expect(await answer.text()).toMatch(/^<svg /);
  });

  it('links its stylesheet and scripts under paths that change with them, compressed and kept for a year', async () => {
    const property = await createProperty({ name: 'Cached Court' });
    await page.goto(property.application_url);
    const href = await page.getAttribute('link[rel="stylesheet"]', 'href');
    expect(href).toMatch(/^\/assets\/[0-9a-f]{12}\/form\.css$/);
    // The browser loaded it and applies its rules.
    expect(await page.evaluate<number>('document.styleSheets[0].cssRules.length')).toBeGreaterThan(10);

    const plain = await (await fetch(`${stack.formUrl}/form.css`, { headers: { 'accept-encoding': 'identity' } })).text();
    const url = `${stack.formUrl}${href}`;
    for (const encoding of ['br', 'gzip']) {
      // fetch opens what it is sent: the text is compared as a browser reads it.
      const answer = await fetch(url, { headers: { 'accept-encoding': `${encoding}, deflate` } });
      expect([answer.status, answer.headers.get('content-encoding'), answer.headers.get('vary')]).toEqual([
        200,
        encoding,
        'accept-encoding',
      ]);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await answer.text()).toBe(plain);
    }
    // Another version than its own (a page of the next deploy, say): what it has, not to be kept.
    const other = await fetch(url.replace(/\/assets\/[0-9a-f]{12}\//, '/assets/000000000000/'));
    expect([other.status, other.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    expect((await fetch(`${stack.formUrl}/assets/${href!.split('/')[2]}/main.js`)).status).toBe(404);
  });

  it('turns a page with problems into a plain visit in the history: Reload and Back load it, never resend the form', async () => {
    const property = await createProperty({ name: 'Resubmit Court' });
    await page.goto(property.application_url);
    await page.getByLabel('First name').fill('Ada');
    // No last name and no e-mail: the page comes back with its problems, in answer to the POST.
    await submit(page);
    expect(await mainText(page)).toContain('Please correct these 2 problems');
    // Reload asks for the page again: nothing is sent twice, the problems are gone, and so is the POST.
    const reloaded = await page.reload();
    expect([reloaded?.request().method(), reloaded?.status(), page.url()]).toEqual(['GET', 200, property.application_url]);
    expect(await mainText(page)).not.toContain('Please correct');

    await page.getByLabel('First name').fill('Ada');
    await submit(page);
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await submit(page, /\/details$/);
    // Back to the page that had problems: loaded (or kept) as a page, not a form to send again.
    const back = await page.goBack();
    expect(back === null || back.request().method() === 'GET').toBe(true);
    expect(page.url()).toBe(property.application_url);
    expect(await page.getByLabel('First name').count()).toBe(1);
  });

  /** Text that would run or load something if any page wrote it as markup. */
  const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

  /** Clicks a button that draws the same step again (Add another, Remove): no script needed. */
  async function redraw(name: string | RegExp): Promise<void> {
    const loaded = page.waitForEvent('load');
    await page.getByRole('button', { name, exact: typeof name === 'string' }).click();
    await loaded;
  }

  it('works on a 375 px wide screen and has no serious accessibility violation, on every step and section', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const property = await createProperty({
      name: 'Harbor View Apartments',
      kind: 'multi_family',
      street: '1 Quay Street',
      city: 'Portland',
    });
    await client.post(`/api/v2/properties/${property.id}/floor_plans`, {
      floor_plan: { name: 'Two bedroom with a long name to wrap', beds: 2, baths: 1.5, rent: 2150 },
    });

    await page.goto(property.application_url);
    expect(await mainText(page)).toContain('Step 1 of 11');
    await checkPage('01-contact');
    await page.getByLabel('E-mail address').fill('not an address');
    await submit(page, property.application_url);
    await checkPage('01-contact-problems');

    await page.getByLabel('First name').fill(HOSTILE);
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await submit(page, /\/details$/);
    await checkPage('02-details');
    await page.getByLabel('Floor plan').selectOption({ index: 2 });
    await page.getByLabel('Describe the unit you want').fill(HOSTILE);
    await submit(page, /\/identity$/);

    // The SSN is masked as it is typed; the page's one script shows it on request.
    const ssn = page.getByLabel('Social security number');
    expect(await ssn.getAttribute('type')).toBe('password');
    expect(await ssn.getAttribute('autocomplete')).toBe('off');
    // Bordered like every other field, not with the browser's default.
    const border = (selector: string) =>
      page.evaluate<string>(
        `(() => { const s = getComputedStyle(document.querySelector('${selector}')); ` +
          'return [s.borderStyle, s.borderWidth, s.borderColor, s.borderRadius, s.padding].join(" "); })()',
      );
    expect(await border('input[type=password]')).toBe(await border('input[name=middle_name]'));
    expect(await page.locator('#ssn-privacy').innerText()).toContain('Harbor View Apartments, 1 Quay Street, Portland');
    await page.getByLabel('Middle name').fill(HOSTILE);
    await page.getByLabel('Date of birth').fill('1990-12-10');
    await ssn.fill('123-45-6789');
    await page.getByRole('button', { name: 'Show' }).click();
    expect(await ssn.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide' }).click();
    expect(await ssn.getAttribute('type')).toBe('password');
    await page.getByLabel('Driver’s license state').selectOption('NY');
    await page.getByLabel('Driver’s license number').fill('D1234567');
    await checkPage('03-identity');
    await submit(page, /\/residence_history$/);

    // Entries added and removed with buttons that post the page: three addresses, then the last one taken away.
    const address = (n: number) => page.getByRole('group', { name: `Address ${n}` });
    await address(1).getByLabel('Address', { exact: true }).fill(HOSTILE);
    await address(1).getByLabel('Moved in').fill('2023-01-01');
    await redraw('Add another address');
    await address(2).getByLabel('Address', { exact: true }).fill('3 Oak Road, Springfield');
    await address(2).getByLabel('Moved in').fill('2015-01-01');
    await address(2).getByLabel('Moved out').fill('2023-01-01');
    await address(2).getByLabel('Reason for leaving').fill(HOSTILE);
    await redraw('Add another address');
    expect(await page.getByRole('group', { name: /^Address \d$/ }).count()).toBe(3);
    await redraw('Remove address 3');
    expect(await page.getByRole('group', { name: /^Address \d$/ }).count()).toBe(2);
    expect(await address(2).getByLabel('Address', { exact: true }).inputValue()).toBe('3 Oak Road, Springfield');
    await checkPage('04-residence-history');
    await submit(page, /\/employment$/);

    const job = page.getByRole('group', { name: 'Job 1' });
    await job.getByLabel('Employer').fill(HOSTILE);
    await job.getByLabel('Position').fill(HOSTILE);
    await job.getByLabel('Start date').fill('2020-02-01');
    await job.getByLabel('Monthly income before tax, in dollars').fill('5,200');
    await redraw('Add other income');
    await page.getByRole('group', { name: 'Other income 1' }).getByLabel('Source').fill(HOSTILE);
    await page.getByRole('group', { name: 'Other income 1' }).getByLabel('Monthly amount in dollars').fill('400');
    await checkPage('05-employment');
    await submit(page, /\/household$/);

    for (const entry of ['adult', 'child', 'pet', 'vehicle', 'guarantor']) await redraw(`Add ${entry}`);
    const adult = page.getByRole('group', { name: 'Adult 1' });
    await adult.getByLabel('First name').fill(HOSTILE);
    await adult.getByLabel('Last name').fill('Babbage');
    await adult.getByLabel('E-mail address').fill('charles@example.com');
    await page.getByRole('group', { name: 'Child 1' }).getByLabel('Full name').fill(HOSTILE);
    await page.getByRole('group', { name: 'Child 1' }).getByLabel('Age').fill('7');
    await page.getByRole('group', { name: 'Pet 1' }).getByLabel('Kind of animal').fill(HOSTILE);
    await page.getByRole('group', { name: 'Pet 1' }).getByLabel('Breed, size and weight').fill(HOSTILE);
    await page.getByRole('group', { name: 'Vehicle 1' }).getByLabel('Make and model').fill(HOSTILE);
    await page.getByRole('group', { name: 'Vehicle 1' }).getByLabel('License plate').fill('ABC 1234');
    const guarantor = page.getByRole('group', { name: 'Guarantor 1' });
    await guarantor.getByLabel('First name').fill('Anne');
    await guarantor.getByLabel('Last name').fill(HOSTILE);
    await guarantor.getByLabel('E-mail address').fill('anne@example.com');
    await checkPage('06-household');
    await submit(page, /\/emergency_contact$/);

    await page.getByLabel('Full name').fill(HOSTILE);
    await page.getByLabel('Relationship to you').fill(HOSTILE);
    await page.getByLabel('Phone number').fill('555 010 9876');
    await checkPage('07-emergency-contact');
    await submit(page, /\/documents$/);

    // Preset 1 offers documents without requiring them: Continue leads on without one.
    await checkPage('07b-documents');
    await Promise.all([page.waitForURL(/\/questions$/), page.getByRole('link', { name: 'Continue', exact: true }).click()]);

    // Every kind of question: a problem first, then the follow-up its answer asks for.
    await page.getByRole('group', { name: 'Have you ever been evicted?' }).getByLabel('Yes').check();
    await page.getByLabel('How many people will live here in all?').fill('three');
    await submit(page, /\/questions$/);
    expect(await page.locator('.error-summary').innerText()).toContain('Explain the eviction: must be answered');
    await checkPage('08-questions-problems');
    await page.getByLabel('Explain the eviction').fill(HOSTILE);
    for (const question of [
      'Has a court ever ruled against you over a debt or a lease?',
      'Have you filed for bankruptcy in the last 7 years?',
      'Have you ever refused to pay rent?',
      'Does anyone who will live here smoke?',
    ]) {
      await page.getByRole('group', { name: question }).getByLabel('No').check();
    }
    await page.getByRole('group', { name: 'How did you hear about this home? (optional)' }).getByLabel('A friend').check();
    await page.getByLabel('Earliest date you could sign a lease').fill('2027-02-01');
    await page.getByLabel('Savings you could show, in dollars').fill('$12,000');
    await page.getByLabel('How many people will live here in all?').fill('3');
    await page.getByLabel('Phone number of a personal reference').fill('(555) 010-3333');
    await page.getByLabel('E-mail address of a personal reference').fill('ref@example.com');
    await page.getByLabel('Mailing address, if not your current address').fill(HOSTILE);
    await submit(page, /\/review$/);

    await checkPage('09-review');
    const review = await mainText(page);
    expect(review).toContain(HOSTILE);
    expect(review).not.toContain('123-45-6789');
    await page.getByRole('link', { name: 'Continue to sign' }).click();
    await page.waitForURL(/\/finish$/);
    await page.getByLabel('I have read the disclosures above and agree to them').check();
    await page.getByLabel('Signature: type your full name').fill(HOSTILE);
    await checkPage('10-finish');
    await submit(page, /\/done$/);
    await checkPage('11-done');
    expect(dialogs).toEqual([]);
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    // The guarantor named in the household fills in its own, shorter form: no unit, household or questions.
    const list = await client.get(`/api/v2/applications?property_id=${property.id}`);
    const summary = list.body.applications[0].applicants.find((a: { type: string }) => a.type === 'guarantor');
    const record = (await client.get(new URL(summary.api_url).pathname)).body.applicant;
    await page.goto(record.form_url);
    expect(await mainText(page)).toContain('Step 1 of 7');
    await checkPage('12-guarantor-contact');
    await submit(page, /\/identity$/);
    await page.getByLabel('Date of birth').fill('1960-05-05');
    await page.getByLabel('Social security number').fill('078-05-1120');
    await checkPage('13-guarantor-identity');
    await submit(page, /\/residence_history$/);
    await address(1).getByLabel('Address', { exact: true }).fill('9 Far Lane, Shelbyville');
    await address(1).getByLabel('Moved in').fill('2000-01-01');
    await checkPage('14-guarantor-residence-history');
    await submit(page, /\/employment$/);
    await checkPage('15-guarantor-employment');
    await submit(page, /\/documents$/);
    await checkPage('16-guarantor-documents');
    await Promise.all([page.waitForURL(/\/review$/), page.getByRole('link', { name: 'Continue', exact: true }).click()]);
    expect(await page.getByRole('heading', { name: 'Your household' }).count()).toBe(0);
    await checkPage('17-guarantor-review');
    await page.getByRole('link', { name: 'Continue to sign' }).click();
    await page.waitForURL(/\/finish$/);
    await page.getByLabel('I have read the disclosures above and agree to them').check();
    await page.getByLabel('Signature: type your full name').fill('Anne Milbanke');
    await checkPage('18-guarantor-finish');
    await submit(page, /\/done$/);
    await checkPage('19-guarantor-done');
    expect((await client.get(new URL(summary.api_url).pathname)).body.applicant).toMatchObject({
      type: 'guarantor',
      form_status: 'completed',
      residences: [{ address: '9 Far Lane, Shelbyville' }],
    });

    await page.goto(`${stack.formUrl}/properties/999999/apply`);
    await noHorizontalScroll();
    expect(await seriousViolations()).toEqual([]);

    // The check sees what it should: a page with an unlabelled field and no language fails it.
    await page.setContent('<!doctype html><html><body><form><input name="x"></form></body></html>');
    expect((await seriousViolations()).map((violation) => violation.split(':')[0])).toEqual(
      expect.arrayContaining(['html-has-lang', 'label']),
    );
  });

  it('keeps the manager’s phone number on one line on a 375 px wide screen', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    // Name, address and number fill more than a line: without care the line ends inside the number.
    const property = await createProperty({
      name: 'Phone Court',
      manager_name: 'Marguerite Duras',
      manager_email: 'lettings@example.com',
      manager_phone: '5550101234',
    });
    await page.goto(property.application_url);
    const phone = page.locator('.property-manager a[href^="tel:"]');
    expect(await phone.innerText()).toBe('(555) 010-1234');
    expect(await phone.evaluate((link) => link.getClientRects().length)).toBe(1);
    await noHorizontalScroll();
  });

  it('shows a multiple choice question as checkboxes that fit a 375 px wide screen and pass axe, ticked as chosen', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    // Preset 2 asks which parking the applicant needs, any number of the options.
    const property = await createProperty({ name: 'Checkbox Lofts', kind: 'single_family', form_preset_id: 2 });
    await startToIdentity(page, property.application_url, { first_name: 'Tick', last_name: 'Boxer', email: 'tick@example.com' });
    const parking = page.getByRole('group', { name: 'Parking you need (optional)' });
    await fillSections(page, 'Tick Boxer', {
      questions: async () => {
        await parking.getByLabel('Car space').check();
        await parking.getByLabel('Bicycle storage').check();
        await page.getByRole('group', { name: 'Do you have pets?' }).getByLabel('Yes').check();
        // The follow-up left unanswered: the page comes back with its problem and the boxes still ticked.
        await submit(page, /\/questions$/);
        expect(await page.locator('.error-summary').innerText()).toContain('Which pets (kind, breed, weight)?: must be answered');
        expect(await parking.locator('input[type="checkbox"]').count()).toBe(3);
        await checkPage('20-questions-checkboxes');
        expect(await parking.getByLabel('Car space').isChecked()).toBe(true);
        expect(await parking.getByLabel('Motorcycle space').isChecked()).toBe(false);
        expect(await parking.getByLabel('Bicycle storage').isChecked()).toBe(true);
        await page.getByLabel('Which pets (kind, breed, weight)?').fill('A cat');
      },
    });
    await submit(page, /\/done$/);

    const list = await client.get(`/api/v2/applications?property_id=${property.id}`);
    const applicant = (await client.get(new URL(list.body.applications[0].applicants[0].api_url).pathname)).body.applicant;
    expect(applicant.form_answers).toEqual({ pets: 'yes', pet_details: 'A cat', parking: 'Car space; Bicycle storage' });
  });

  it('can be completed, and withdrawn, with the keyboard alone', async () => {
    const property = await createProperty({ name: 'Keyboard Cottage', kind: 'single_family' });
    await page.goto(property.application_url);

    /** What has the focus: a field's name, `submit` for the page's own button, a named button as name=value, or a link's text. */
    const focused = () =>
      page.evaluate<string>(`(() => {
        const el = document.activeElement;
        if (el.tagName === 'BUTTON') return el.name ? el.name + '=' + el.value : 'submit';
        return el.name || el.textContent.trim();
      })()`);
    /** Tabs forward until the focus is on `name` (see focused). */
    const tabTo = async (name: string) => {
      for (let presses = 0; presses < 80; presses++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    const typeInto = async (name: string, text: string) => {
      await tabTo(name);
      await page.keyboard.type(text);
    };
    const press = async (name: string, key: string, url: RegExp | null) => {
      await tabTo(name);
      const navigated = url ? page.waitForURL(url) : page.waitForEvent('load');
      await page.keyboard.press(key);
      await navigated;
    };

    await typeInto('first_name', 'Key');
    await typeInto('last_name', 'Board');
    await typeInto('email', 'keys@example.com');
    await press('submit', 'Enter', /\/details$/);
    await press('submit', 'Enter', /\/identity$/);
    await typeInto('dob', '04121990');
    await typeInto('id_number', '123456789');
    // Enter in a field sends the step: Continue, never one of the Add or Remove buttons.
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/residence_history$/);
    await typeInto('residences.0.address', '1 Home Row, Keyton');
    await typeInto('residences.0.from', '01012015');
    await press('submit', 'Enter', /\/employment$/);
    await press('remove=employment.0', 'Enter', null);
    await press('submit', 'Enter', /\/household$/);
    await press('add=pets', 'Enter', null);
    await typeInto('pets.0.kind', 'Cat');
    await press('submit', 'Enter', /\/emergency_contact$/);
    await typeInto('name', 'Key Contact');
    await typeInto('phone', '5550109876');
    await press('submit', 'Enter', /\/documents$/);
    await press('Continue', 'Enter', /\/questions$/);
    for (const question of ['evicted', 'judgements', 'bankruptcy', 'refused_rent', 'smoking']) {
      await tabTo(`answers.${question}`);
      // In a radio group the arrow keys move to, and choose, the next choice.
      await page.keyboard.press('ArrowDown');
    }
    await typeInto('answers.occupants', '1');
    await press('submit', 'Enter', /\/review$/);
    await press('Continue to sign', 'Enter', /\/finish$/);
    await tabTo('consent');
    await page.keyboard.press('Space');
    await typeInto('signature', 'Key Board');
    await press('submit', 'Enter', /\/done$/);
    expect(await mainText(page)).toContain('Your application to Keyboard Cottage is complete.');

    const list = await client.get(`/api/v2/applications?property_id=${property.id}`);
    const applicant = (await client.get(new URL(list.body.applications[0].applicants[0].api_url).pathname)).body.applicant;
    expect(applicant).toMatchObject({
      form_status: 'completed',
      form_answers: { evicted: 'no', judgements: 'no', bankruptcy: 'no', refused_rent: 'no', smoking: 'no', occupants: '1' },
      residences: [{ address: '1 Home Row, Keyton', from: '2015-01-01' }],
      employment: [],
      household: { adults: [], minors: [], pets: [{ kind: 'Cat' }], vehicles: [], guarantors: [] },
    });

    // Then withdrawn through the confirmation page's link, confirmed on its own page, each passing axe.
    await press('Withdraw your application', 'Enter', /\/withdraw$/);
    expect(await mainText(page)).toContain('Do you want to withdraw your application to Keyboard Cottage?');
    await checkPage('21-withdraw');
    await press('submit', 'Enter', null);
    expect(await mainText(page)).toContain('Your application to Keyboard Cottage is withdrawn.');
    await checkPage('22-withdrawn');
    const withdrawn = await client.get(`/api/v2/applications/${list.body.applications[0].id}`);
    expect(withdrawn.body.application.status).toBe('withdrawn');
  });

  it('shows the pages of an e-mail’s own links at a phone’s width, passing axe, each used with the keyboard alone', async () => {
    // A link as an e-mail to a.keyboard@example.test carried it: only its token's digest is kept.
    const notifications = await stack.database('notifications');
    try {
      for (const [purpose, title, button, screenshot, done] of [
        ['confirm', 'Confirm your e-mail address', 'Confirm my address', '23-confirm-address', 'will reach you at this address'],
        ['unsubscribe', 'Stop e-mails to this address', 'Stop the e-mails', '24-unsubscribe', 'No more e-mail of ours'],
      ]) {
        const token = (purpose === 'confirm' ? 'C' : 'U').repeat(43);
        await notifications.collection('address_links').insertOne({
          _id: formTokenDigest(token) as never,
          purpose,
          address: `keyboard-pages-${purpose}`,
          client_id: 1,
          property_name: 'Keyboard Cottage',
          mailbox: 'a***@example.test',
          created_at: new Date(),
        });
        await page.goto(`${stack.formUrl}/mail/${purpose}/${token}`);
        expect(await page.locator('h1').innerText()).toBe(title);
        expect(await mainText(page)).toContain('a***@example.test');
        await checkPage(screenshot);
        for (let presses = 0; presses < 20; presses++) {
          await page.keyboard.press('Tab');
          if ((await page.evaluate<string>('document.activeElement.textContent.trim()')) === button) break;
        }
        const answered = page.waitForEvent('load');
        await page.keyboard.press('Enter');
        await answered;
        expect(await mainText(page)).toContain(done);
        expect(await seriousViolations()).toEqual([]);
      }
    } finally {
      await notifications.close();
    }
  });

  it('lets ?iframe=true pages be framed on another site, and no other page', async () => {
    const property = await createProperty({ name: 'Framed Flats', kind: 'single_family' });
    const framing = await framingPage(
      `<iframe title="with iframe=true" src="${property.application_url}?iframe=true" width="600" height="900"></iframe>` +
        `<iframe title="without" src="${property.application_url}" width="600" height="400"></iframe>`,
    );
    try {
      const plain = await fetch(property.application_url);
      expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const framed = await fetch(`${property.application_url}?iframe=true`);
      expect(framed.headers.get('content-security-policy')).toContain('frame-ancestors *');

      await page.goto(framing.url);
      const allowed = page.frameLocator('iframe[title="with iframe=true"]');
      await allowed.getByLabel('First name').waitFor();
      // The page's load waited for both frames: the other one was refused its content.
      expect(await page.frameLocator('iframe[title="without"]').locator('form').count()).toBe(0);
      expect(await allowed.locator('form').count()).toBe(1);

      // Inside the frame, every step keeps its ?iframe=true and so stays frameable.
      await allowed.getByLabel('First name').fill('Frame');
      await allowed.getByLabel('Last name').fill('Dweller');
      await allowed.getByLabel('E-mail address').fill('frame@example.com');
      await allowed.locator('button[type="submit"]').press('Enter');
      await allowed.getByLabel('Desired move-in date').waitFor();
      const inner = page.frames().find((frame) => frame.url().includes('/details'));
      expect(inner?.url()).toMatch(/\/applicants\/[\w-]{60}\/details\?iframe=true$/);
    } finally {
      await framing.close();
    }
  });
});

/** A landlord's page on another origin that frames the form. */
async function framingPage(body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Landlord</title>${body}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    // localhost rather than 127.0.0.1: another origin than the form's.
    url: `http://localhost:${port}/`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
