/** Whole seconds from now until a client-time instant, never negative. */
export function secondsUntil(clientTime: number | null, now: number = Date.now()): number {
  if (clientTime === null) return 0;
  return Math.max(0, Math.ceil((clientTime - now) / 1000));
}

/** "45 seconds", "3 minutes", "45 sekunder"… in the user's language (Intl picks the plural form). */
export function formatWait(seconds: number, language: string): string {
  const [value, unit] = seconds < 120 ? [Math.max(1, seconds), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
