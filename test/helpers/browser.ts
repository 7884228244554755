/**
 * Headless Debian Chromium through playwright-core (issue 7): never a downloaded browser build.
 * `npm test` runs scripts/ensure-debian.mjs first, which installs Debian's `chromium` when it
 * can; without a browser, the browser tests skip and say why (never silently).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from './repo.js';

export const CHROMIUM = process.env.GSPC_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `no Chromium at ${CHROMIUM} (install Debian's chromium: apt-get install -y chromium; npm test does it when run as root)`;
}

let shared: Promise<Browser> | undefined;
// Registered when a test file imports this helper (file level), so the browser outlives every
// test of the file however deep its first use is, and is closed once at the end.
after(async () => {
  if (shared) await (await shared).close();
});

/** One headless browser per test file, launched at first use, closed when the file ends. */
export function browser(): Promise<Browser> {
  shared ??= chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  return shared;
}

export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

let reused: Promise<Page> | undefined;

/**
 * The file's page at a viewport, navigated by the caller; console errors and requests to other
 * origins are collected afresh for each call. One context and one page serve every test of a
 * file: a new browser context costs a new renderer process (0.5–0.8 s on the 2-core machine, more
 * than most page tests themselves), and every test starts with its own `goto`, which replaces
 * the document. The pages keep no cookies or storage, so nothing else carries over; listeners a
 * test added are removed before the next one gets the page.
 */
export async function openPage(
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ page: Page; errors: string[]; offOrigin: string[] }> {
  reused ??= (async () => {
    // Closed with the browser when the file ends.
    const context = await (await browser()).newContext({ viewport: DESKTOP, deviceScaleFactor: 1 });
    return context.newPage();
  })();
  const page = await reused;
  for (const event of ['console', 'pageerror', 'request', 'dialog'] as const) await page.removeAllListeners(event);
  await page.goto('about:blank');
  await page.setViewportSize(viewport);
  const errors: string[] = [];
  const offOrigin: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:' && u.protocol !== 'about:' && u.hostname !== '127.0.0.1' && u.hostname !== 'localhost')
      offOrigin.push(r.url());
  });
  return { page, errors, offOrigin };
}

/** Where the tests write their screenshots (build/screenshots/<name>-<desktop|phone>.png). */
export const SCREENSHOT_DIR = join(repoRoot, 'build', 'screenshots');

/**
 * A full-page screenshot for a person to look at, written only when GSPC_TEST_SCREENSHOTS=1: no
 * test reads them, and encoding 22 full pages cost about 10 s of the suite's two cores.
 */
export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  if (process.env.GSPC_TEST_SCREENSHOTS !== '1') return undefined;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Opens `<origin>/gspc-verify`, checks every published card in the reader's browser ("Check every
 * published card") and returns the verdict, with what the page logged and fetched elsewhere.
 */
export async function verifyServedInBrowser(origin: string) {
  const { page, errors, offOrigin } = await openPage();
  await page.goto(`${origin}/gspc-verify`);
  await page.waitForSelector('body[data-verify-ready="true"]');
  await page.click('#verify-served');
  const box = page.locator('#verify-result[data-state="done"], #verify-result[data-state="error"]');
  await box.waitFor({ timeout: 30_000 });
  return {
    page,
    result: await box.getAttribute('data-result'),
    text: await box.innerText(),
    valid: await page.locator('#verify-result .verify-summary').getAttribute('data-valid'),
    errors,
    offOrigin,
  };
}
