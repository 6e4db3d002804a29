import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { Stack } from '../tools/stack';
import { launchBrowser, mainText, submit } from './support/browser';
import { Api, api } from './support/http';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** `UPDATE_FORM_SCREENSHOTS=1` writes each step's screenshot into docs/form/ (the README shows one). */
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
    // Evaluated through the DevTools protocol: the page's CSP (no scripts at all) does not apply.
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

  it('works on a 375 px wide screen and has no serious accessibility violation, on every step', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const property = await createProperty({ name: 'Harbor View Apartments', kind: 'multi_family', city: 'Portland' });
    await client.post(`/api/v2/properties/${property.id}/floor_plans`, {
      floor_plan: { name: 'Two bedroom with a long name to wrap', beds: 2, baths: 1.5, rent: 2150 },
    });

    await page.goto(property.application_url);
    await checkPage('1-contact');
    await page.getByLabel('E-mail address').fill('not an address');
    await submit(page, property.application_url);
    await checkPage('1-contact-problems');

    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await submit(page, /\/details$/);
    await checkPage('2-details');

    await page.getByLabel('Floor plan').selectOption({ index: 2 });
    await page.getByLabel('Describe the unit you want').fill('High floor, quiet side');
    await submit(page, /\/finish$/);
    await checkPage('3-questions');

    await page.getByLabel('Current address').fill('12 Analytical Row');
    await page.getByRole('group', { name: 'Have you ever been evicted?' }).getByLabel('No').check();
    await page.getByLabel('Date of birth').fill('1990-12-10');
    await page.getByLabel('Social security number').fill('123-45-6789');
    await page.getByLabel('I have read the disclosures above and agree to them').check();
    await page.getByLabel('Signature: type your full name').fill('Ada Lovelace');
    await submit(page, /\/done$/);
    await checkPage('4-done');

    await page.goto(`${stack.formUrl}/properties/999999/apply`);
    await noHorizontalScroll();
    expect(await seriousViolations()).toEqual([]);

    // The check sees what it should: a page with an unlabelled field and no language fails it.
    await page.setContent('<!doctype html><html><body><form><input name="x"></form></body></html>');
    expect((await seriousViolations()).map((violation) => violation.split(':')[0])).toEqual(
      expect.arrayContaining(['html-has-lang', 'label']),
    );
  });

  it('can be completed with the keyboard alone', async () => {
    const property = await createProperty({ name: 'Keyboard Cottage', kind: 'single_family' });
    await page.goto(property.application_url);

    /** Tabs forward until the focus is on the field named `name` (or the submit button). */
    const tabTo = async (name: string) => {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate<string>(
          "document.activeElement.type === 'submit' ? 'submit' : (document.activeElement.name || '')",
        );
        if (focused === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    const typeInto = async (name: string, text: string) => {
      await tabTo(name);
      await page.keyboard.type(text);
    };
    const press = async (name: string, key: string, url: RegExp) => {
      await tabTo(name);
      const navigated = page.waitForURL(url);
      await page.keyboard.press(key);
      await navigated;
    };

    await typeInto('first_name', 'Key');
    await typeInto('last_name', 'Board');
    await typeInto('email', 'keys@example.com');
    await press('submit', 'Enter', /\/details$/);
    await press('submit', 'Enter', /\/finish$/);
    await typeInto('answers.current_address', '1 Home Row');
    await tabTo('answers.evicted');
    // In a radio group the arrow keys move to, and choose, the next choice.
    await page.keyboard.press('ArrowDown');
    await typeInto('dob', '04121990');
    await typeInto('id_number', '123456789');
    await tabTo('consent');
    await page.keyboard.press('Space');
    await typeInto('signature', 'Key Board');
    await press('submit', 'Enter', /\/done$/);
    expect(await mainText(page)).toContain('Your application to Keyboard Cottage is complete.');

    const list = await client.get(`/api/v2/applications?property_id=${property.id}`);
    const applicant = (await client.get(new URL(list.body.applications[0].applicants[0].api_url).pathname)).body.applicant;
    expect(applicant).toMatchObject({ form_status: 'completed', form_answers: { current_address: '1 Home Row', evicted: 'no' } });
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
