/** Whole seconds from now until a client-time instant, never negative. */
export function secondsUntil(clientTime: number | null, now: number = Date.now()): number {
  if (clientTime === null) return 0;
  return Math.max(0, Math.ceil((clientTime - now) / 1000));
}

/** Waits up to this long are counted in seconds; longer ones in whole minutes (rounded up). */
const SECONDS_UP_TO = 90;

/**
 * A wait with its unit, in the user's language, as Intl writes it: "45 seconds", "3 minutes", "45 sekunder" in a
 * sentence (`long`); "29 sec", "29 s", "53 min" where it stands on its own and ticks (`short`).
 */
export function formatWait(seconds: number, language: string, unitDisplay: 'long' | 'short' = 'long'): string {
  const [value, unit] =
    seconds <= SECONDS_UP_TO ? [Math.max(1, seconds), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay }).format(value);
}
