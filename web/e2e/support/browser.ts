import axe from 'axe-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_OUTPUT } from './stack-paths';

export const SCREENSHOTS = join(TEST_OUTPUT, 'screenshots');

/** The WCAG levels every screen must meet (plus axe's best practices, which the app has kept at zero too). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** What axe.run gives back, as far as the checks read it. */
interface AxeResults {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: string[] }[] }[];
}

/**
 * axe-core's violations on the page as it is now (AXE_TAGS), reduced to what helps fixing them. axe-core runs in the
 * page itself, put there once per document: a check of a screen after another on the same document (a form's
 * errors after the form) only runs it again. @axe-core/playwright, which this replaced, evaluated axe-core's
 * half-megabyte source twice on every check and finished each run in a blank page of its own (for pages with
 * cross-origin frames; the sign-in app has none). accessibility-check.e2e.test.ts shows the check still finds faults.
 */
export async function axeViolations(
  page: Page,
): Promise<{ id: string; impact: string | null | undefined; help: string; targets: string[] }[]> {
  const present = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!present)
    await page.evaluate(
      `${axe.source};axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } });`,
    );
  const { violations } = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe.run(
        { include: [], exclude: [] },
        { runOnly: { type: 'tag', values: tags } },
      ),
    AXE_TAGS,
  );
  return violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

/** A full-page screenshot in test-output/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export interface OutboxMessage {
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  createdAt: string;
}

/** The newest message the region's development outbox sent to `to` after `since`, waiting for it to arrive. */
export async function awaitMessage(
  regionUrl: string,
  to: string,
  since: number,
  timeoutMs = 15_000,
): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${regionUrl}/dev/outbox?to=${encodeURIComponent(to)}`);
    const { data } = (await response.json()) as { data: OutboxMessage[] };
    const message = data.find((candidate) => Date.parse(candidate.createdAt) >= since);
    if (message) return message;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No message to ${to} at ${regionUrl}/dev/outbox within ${timeoutMs} ms`);
}

/** The 6-digit one-time code in a message. */
export function codeIn(message: OutboxMessage): string {
  const code = /\b(\d{6})\b/.exec(message.body)?.[1];
  if (!code) throw new Error(`No 6-digit code in: ${message.body}`);
  return code;
}

/** The sign-in app link in a message (set-password or reset-password). */
export function linkIn(message: OutboxMessage): string {
  const link = /https?:\/\/\S+\/(?:set|reset)-password\?\S+/.exec(message.body)?.[0];
  if (!link) throw new Error(`No password link in: ${message.body}`);
  return link;
}
