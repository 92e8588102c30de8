// The ports the probes module uses, in one place; the composition root (modules/registry.ts) hands it
// exactly these. It calls the sessions module, so it carries that module's ports too.
import type { SessionsDeps } from '../sessions';

export type ProbesDeps = SessionsDeps;
