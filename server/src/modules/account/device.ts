// A coarse device from the user agent a sign-in sent, as the account page shows it: its kind, the browser family and
// the operating system family, never versions or models. The parsing is bowser's (a kept, widely used parser); this
// only maps its answer onto the contract's few values (SessionDevice).
import Bowser from 'bowser';
import type { components } from '../../../../generated/core-api';

export type SessionDevice = components['schemas']['SessionDevice'];

const unknownDevice: SessionDevice = { type: 'unknown', browser: null, os: null };
const desktopSystems = new Set(['Windows', 'macOS', 'Linux', 'Chrome OS']);
const kinds: Record<string, SessionDevice['type']> = { desktop: 'desktop', mobile: 'mobile', tablet: 'tablet' };

/** Cut to the contract's bound; an empty name is none. */
const name = (value: string | undefined): string | null => (value ? value.slice(0, 64) : null);

/**
 * The device of a user agent: a browser it recognises, with its kind (from the platform, else from a desktop
 * system); anything else that sent a user agent is an `app` (the mobile apps, an integration); no user agent is
 * `unknown`.
 */
export function deviceOf(userAgent: string | null): SessionDevice {
  if (!userAgent) return unknownDevice;
  const parsed = Bowser.parse(userAgent);
  const browser = name(parsed.browser.name);
  const os = name(parsed.os.name);
  if (!browser) return { type: 'app', browser: null, os };
  const type = kinds[parsed.platform.type ?? ''] ?? (os && desktopSystems.has(os) ? 'desktop' : 'unknown');
  return { type, browser, os };
}
