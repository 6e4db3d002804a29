import { existsSync } from 'node:fs';
import { Browser, chromium, Page } from 'playwright-core';

/** Debian's chromium, which `.ci/run` installs when it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A headless Chromium; no download, no sandbox (CI runs as root in a container). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/**
 * Clicks the form's own submit button (not an "Add another" or "Remove" one, which are named)
 * and resolves once the next page has loaded (or `url` matches).
 */
export async function submit(page: Page, url?: RegExp | string): Promise<void> {
  const navigated = url ? page.waitForURL(url) : page.waitForEvent('load');
  await page.locator('main form button[type="submit"]:not([name]):visible').click();
  await navigated;
}

/** The visible text of the page's main content. */
export function mainText(page: Page): Promise<string> {
  return page.locator('main').innerText();
}
