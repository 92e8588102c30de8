/** Below this the Date header (whole seconds) cannot tell skew from rounding, so clocks count as in step. */
const RESOLUTION_MS = 1500;

/**
 * Server clock minus client clock, from the answer's Date header, so countdowns to server instants
 * (resendUnavailableUntil, unavailableUntil) stay right on a device whose clock is off.
 * Cross-origin answers expose Date only when the API lists it in Access-Control-Expose-Headers; without it: 0.
 */
export function clockOffsetMs(response: Response, sentAt: number, receivedAt: number): number {
  const header = response.headers.get('date');
  const serverTime = header ? Date.parse(header) : Number.NaN;
  if (Number.isNaN(serverTime)) return 0;
  // Date is truncated to the second: its true value lies half a second later on average.
  const offset = serverTime + 500 - (sentAt + receivedAt) / 2;
  return Math.abs(offset) < RESOLUTION_MS ? 0 : Math.round(offset);
}

/** A server instant (ISO 8601) in client milliseconds, or null when absent or malformed. */
export function toClientTime(serverInstant: string | undefined, offsetMs: number): number | null {
  const time = serverInstant ? Date.parse(serverInstant) : Number.NaN;
  return Number.isNaN(time) ? null : time - offsetMs;
}
