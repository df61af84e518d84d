import { execFileSync } from 'node:child_process';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * The system's Chromium (Debian's `chromium` on PATH; `.ci/run` installs it), never a downloaded
 * browser. Missing, the browser tests fail with the install command rather than skip.
 */
export function chromiumPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error('the browser tests need Chromium on PATH: sudo apt-get install -y chromium');
  }
}

/** Headless Chromium without sandbox (containers) and without background networking. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** What a page did that it must not: dialogs, console errors, uncaught errors, CSP violations, requests. */
export type PageWatch = { dialogs: string[]; errors: string[]; violations: string[]; requests: string[] };

/** A new page whose dialogs, errors, CSP violations and requests are recorded. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; watch: PageWatch }> {
  const watch: PageWatch = { dialogs: [], errors: [], violations: [], requests: [] };
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('request', (request) => watch.requests.push(request.url()));
  await page.exposeFunction('__cspViolation', (directive: string) => watch.violations.push(directive));
  // A string, not a function: this file is type-checked without the DOM library.
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' ' + e.blockedURI));",
  );
  return { page, watch };
}
