// Probes (region discovery by identity hash): the module's public face.
export { probesHandlers } from './probes.handlers';
