// The frame of a browser suite: the stack (regions, app, demo platform) and one Chromium, started before the
// suite's tests and stopped after them, and a fresh browser context (no storage) for each visit, closed after
// each test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { securityHeaders } from '../../deploy/security-headers';
import { launchChromium } from '../../../test-support/chromium';
import { type Stack, WEB, startStack } from './stack';

/** The mark the app sets once its first render is committed (web/src/app/hydration.ts, READY_MARK). */
export const READY_MARK = 'sign-in:ready';

/** Waits until the sign-in app runs the page: the prerendered login form is on screen well before that. */
export const appReady = (page: Page, timeout = 20_000) =>
  page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, READY_MARK, { timeout });

export interface Visit {
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** What the browser refused under the Content-Security-Policy (checked empty after each test, with any page of the app that came without its security headers). */
  cspViolations: string[];
}

export interface VisitOptions {
  /** Runs on the fresh context before the page opens (routes that hold or change requests, cookies, storage). */
  prepare?: (context: BrowserContext) => Promise<unknown>;
  /**
   * Wait until the app has taken the page over (its ready mark: hydrated or rendered) before resolving; true by
   * default for the sign-in app's pages, whose prerendered login form is on screen before the app runs.
   */
  waitForApp?: boolean;
}

export interface SuiteOptions {
  stack?: Parameters<typeof startStack>[0];
  /** Runs before the stack starts (emptying a screenshot folder, say). */
  prepare?: () => void;
  /** Abort every request that leaves the machine (a development page that imports a web font, say). */
  loopbackOnly?: boolean;
}

/** Registers the suite's hooks; `ready` receives the stack once it runs. */
export function browserSuite(
  options: SuiteOptions,
  ready: (stack: Stack) => void,
): { visit(path: string, locale?: string, options?: VisitOptions): Promise<Visit> } {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    options.prepare?.();
    [stack, browser] = await Promise.all([startStack(options.stack), launchChromium()]);
    ready(stack);
  }, 300_000);

  const violations: string[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    // Every page of every test runs under the production Content-Security-Policy: nothing may be refused.
    expect(violations.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);

  return {
    /** A fresh browser in the given locale, at `path` of the sign-in app (or an absolute URL). */
    async visit(path, locale = 'en-GB', { prepare, waitForApp = true } = {}) {
      const context = await browser!.newContext({ locale, viewport: { width: 1100, height: 820 } });
      contexts.push(context);
      await prepare?.(context);
      if (options.loopbackOnly)
        await context.route(
          (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
          (route) => route.abort(),
        );
      const requests: string[] = [];
      context.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
      const page = await context.newPage();
      const cspViolations: string[] = [];
      // Every page of the app the browser loads comes with the production security headers (web/deploy). Over
      // plain HTTP a browser may drop Strict-Transport-Security from a page it restores (it only counts over
      // HTTPS); hosting.e2e.test.ts checks that one on the wire.
      const { 'Strict-Transport-Security': _overHttpsOnly, ...expected } = securityHeaders(WEB, [
        stack!.europe.url,
        stack!.brazil.url,
      ]);
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'document' || !response.url().startsWith(`${stack!.web}/`)) return;
        const headers = response.headers();
        const wrong = Object.entries(expected).filter(([name, value]) => headers[name.toLowerCase()] !== value);
        if (wrong.length > 0)
          violations.push(`${response.url()}: missing or different ${wrong.map(([name]) => name).join(', ')}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Trusted Type/i.test(message.text())) {
          cspViolations.push(message.text());
          violations.push(`${page.url()}: ${message.text()}`);
        }
      });
      const url = path.startsWith('http') ? path : `${stack!.web}${path}`;
      // Not waiting for the app: not for the page's load either, which waits for the app's script.
      await page.goto(url, { waitUntil: waitForApp ? 'load' : 'commit' });
      if (waitForApp && url.startsWith(`${stack!.web}/`)) await appReady(page);
      return { page, requests, cspViolations };
    },
  };
}
