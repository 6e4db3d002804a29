import { Page } from 'playwright-core';
import { submit } from './browser';

/**
 * Step 1 at a single_family property's `applicationUrl` filled in as `applicant`, and its unit
 * step passed as it is: the page is left on the first section, identity.
 */
export async function startToIdentity(
  page: Page,
  applicationUrl: string,
  applicant: { first_name: string; last_name: string; email: string },
): Promise<void> {
  await page.goto(applicationUrl);
  await page.getByLabel('First name').fill(applicant.first_name);
  await page.getByLabel('Last name').fill(applicant.last_name);
  await page.getByLabel('E-mail address').fill(applicant.email);
  await submit(page, /\/details$/);
  await submit(page, /\/identity$/);
}

/**
 * From the step after the unit to the signature of preset 1 (every property's default): each
 * section the applicant is asked filled in as little as it takes, the review passed, consent
 * given and `signature` typed. `fill` fills a step its own way instead (by step name).
 */
export async function fillSections(page: Page, signature: string, fill: Record<string, () => Promise<void>> = {}): Promise<void> {
  for (let steps = 0; !page.url().endsWith('/finish'); steps++) {
    expect(steps).toBeLessThan(11);
    const step = new URL(page.url()).pathname.split('/').pop()!;
    if (step === 'review') {
      await Promise.all([page.waitForEvent('load'), page.getByRole('link', { name: 'Continue to sign' }).click()]);
      continue;
    }
    if (step === 'documents') {
      // Preset 1 offers documents without requiring them: the page's Continue leads on without one.
      await Promise.all([page.waitForEvent('load'), page.getByRole('link', { name: 'Continue', exact: true }).click()]);
      continue;
    }
    if (fill[step]) await fill[step]();
    else if (step === 'identity') {
      await page.getByLabel('Date of birth').fill('1990-04-12');
      await page.getByLabel('Social security number').fill('123-45-6789');
    } else if (step === 'residence_history') {
      const address = page.getByRole('group', { name: 'Address 1' });
      await address.getByLabel('Address', { exact: true }).fill('1 Old Road, Springfield');
      await address.getByLabel('Moved in').fill('2015-01-01');
    } else if (step === 'emergency_contact') {
      await page.getByLabel('Full name').fill('Mary Somerville');
      await page.getByLabel('Phone number').fill('555 010 9876');
    } else if (step === 'questions') {
      for (const question of ['Have you ever been evicted?', 'Has a court ever ruled against you over a debt or a lease?']) {
        await page.getByRole('group', { name: question }).getByLabel('No').check();
      }
      for (const question of ['Have you filed for bankruptcy in the last 7 years?', 'Have you ever refused to pay rent?']) {
        await page.getByRole('group', { name: question }).getByLabel('No').check();
      }
      await page.getByRole('group', { name: 'Does anyone who will live here smoke?' }).getByLabel('No').check();
      await page.getByLabel('How many people will live here in all?').fill('1');
    }
    const before = page.url();
    await submit(page);
    expect({ step, moved: page.url() !== before }).toEqual({ step, moved: true });
  }
  await page.getByLabel('I have read the disclosures above and agree to them').check();
  await page.getByLabel('Signature: type your full name').fill(signature);
}
