// A real headless Chromium for tests of pages. Debian's `chromium` package is installed when missing
// (the test machines run as root with apt); when it cannot be had, the caller skips with the reason.
import type { Page } from 'puppeteer-core';
import { debianProgramOrReason } from './debian-package.js';

/** The browser's path, installing Debian's package first when there is none; else why not. */
export function chromiumOrReason(): Promise<{ path: string } | { reason: string }> {
  return debianProgramOrReason('chromium', ['chromium', 'chromium-browser', 'google-chrome']);
}

/**
 * Opens `url` in headless Chromium and waits until the expression `ready` holds in the page; answers the
 * value of the expression `read` then, every URL the page requested, and those its policy blocked.
 * (Expressions as text: the project compiles without DOM types.) Puppeteer drives the installed browser;
 * it downloads nothing.
 */
export async function readPage<T>(
  chromium: string,
  url: string,
  ready: string,
  read: string,
): Promise<{ value: T; requested: string[]; blocked: string[] }> {
  return withPage(chromium, async (page) => {
    const failures: string[] = [];
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // What the page's Content-Security-Policy stopped, as the page itself heard it.
    await page.evaluateOnNewDocument(
      "window.__blocked = []; document.addEventListener('securitypolicyviolation', (e) => window.__blocked.push(e.blockedURI));",
    );
    page.on('pageerror', (error) => failures.push(String(error)));
    page.on('requestfailed', (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`));
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    try {
      await page.waitForFunction(ready, { timeout: 60_000, polling: 250 });
    } catch (error) {
      throw new Error(`${(error as Error).message}; page errors: ${failures.join('; ') || 'none'}`);
    }
    // A policy's violation event comes a moment after the request it stopped: wait (a little) until every
    // request bound for another origin has been heard as blocked or not, so the answer does not race it.
    const origin = new URL(url).origin;
    const elsewhere = requested.filter((seen) => /^https?:/.test(seen) && new URL(seen).origin !== origin);
    await page
      .waitForFunction(`${JSON.stringify(elsewhere)}.every((seen) => window.__blocked.includes(seen))`, {
        timeout: 5_000,
        polling: 50,
      })
      .catch(() => undefined);
    const blocked = (await page.evaluate('window.__blocked')) as string[];
    return { value: (await page.evaluate(read)) as T, requested, blocked };
  });
}

/**
 * A new page of a headless Chromium for `use`, closed after it. `localhost` is mapped to 127.0.0.1, where
 * the tests' servers listen.
 */
export async function withPage<T>(chromium: string, use: (page: Page) => Promise<T>): Promise<T> {
  const { launch } = await import('puppeteer-core');
  const browser = await launch({
    executablePath: chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--host-resolver-rules=MAP localhost 127.0.0.1',
    ],
  });
  try {
    return await use(await browser.newPage());
  } finally {
    await browser.close();
  }
}
