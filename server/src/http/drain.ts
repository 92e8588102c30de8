// Draining before a stop: once SIGTERM arrives /readyz answers 503, so the load balancer takes the instance out of
// rotation (two failed checks) before it stops accepting connections; requests in flight finish as usual.
let draining = false;

export const startDraining = (): void => void (draining = true);
export const isDraining = (): boolean => draining;
