import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_OUTPUT } from './stack-paths';

export const SCREENSHOTS = join(TEST_OUTPUT, 'screenshots');

/** The WCAG levels every screen must meet (plus axe's best practices, which the app has kept at zero too). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe-core's violations on the page as it is now (AXE_TAGS), reduced to what helps fixing them. Run in the page
 * itself (axe.run, AxeBuilder's legacy mode) rather than finished in a blank page of its own, which is for pages with
 * cross-origin frames: the sign-in app has none, and the blank page was half of each check's time (26 checks of one
 * language: 39 s before, 20 s after). accessibility-check.e2e.test.ts shows the check still finds faults.
 */
export async function axeViolations(
  page: Page,
): Promise<{ id: string; impact: string | null | undefined; help: string; targets: string[] }[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode().analyze();
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
