// Single sign-on as an operator sets it up: which addresses sign in through which identity provider, and a
// tenant's SAML identity provider.
import type { Executor } from '../../db/database';
import { upsertSamlSettings, upsertSsoDomain } from './sso.repository';

/** Addresses of this domain sign in through the tenant's identity provider of this kind (set again: replaced). */
export const routeSsoDomain = (db: Executor, route: Parameters<typeof upsertSsoDomain>[1]) =>
  upsertSsoDomain(db, route);

/** The tenant's SAML identity provider: where to send users, whose assertions to trust (set again: replaced). */
export const configureSaml = (db: Executor, settings: Parameters<typeof upsertSamlSettings>[1], now: Date) =>
  upsertSamlSettings(db, settings, now);
