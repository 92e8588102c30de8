// The ports the account module uses, in one place; the composition root (modules/registry.ts) hands it exactly
// these. It calls the sessions and passwords modules, so it carries their ports too.
import type { PasswordsDeps } from '../passwords';

export type AccountDeps = PasswordsDeps;
