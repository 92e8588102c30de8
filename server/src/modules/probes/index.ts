// Probes (region discovery by identity hash): the module's public face.
export type { ProbesDeps } from './probes.deps';
export { probesHandlers } from './probes.handlers';
