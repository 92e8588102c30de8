// Counts and times as each language writes them, by Intl (CLDR): "in 60 seconds" / "om 60 sekunder" /
// "60 sekunnin päästä". Templates place the result whole, so plural forms and case endings come from CLDR rather
// than from rules written here. (Fixed lifetimes, 10 minutes or 30 days, are written in the templates themselves:
// CLDR's Swedish "30 dygn" is not what a Swedish email says.)
import { intlLocale, type Language } from './languages';

/** "in 60 seconds", "om 60 sekunder": how soon something happens. */
export const inTime = (language: Language, seconds: number): string =>
  new Intl.RelativeTimeFormat(intlLocale[language], { numeric: 'always' }).format(
    Math.max(0, Math.round(seconds)),
    'second',
  );

/**
 * One formatter per language, zone and style, made once: making an Intl.DateTimeFormat costs about a millisecond
 * of CPU, and 10,000 alarms due within a minute each write their time.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(language: Language, timeZone: string, style: 'dateTime' | 'zone'): Intl.DateTimeFormat {
  const key = `${language} ${timeZone} ${style}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(
      intlLocale[language],
      style === 'dateTime'
        ? { dateStyle: 'medium', timeStyle: 'short', timeZone }
        : { timeZone, timeZoneName: 'short' },
    );
    formatters.set(key, made);
  }
  return made;
}

/** "22 Nov 2026, 10:00 CET": a moment in the region's time zone, with the zone named so it is never ambiguous. */
export const dateTime = (language: Language, at: Date, timeZone: string): string =>
  formatter(language, timeZone, 'dateTime').format(at) + ` ${zoneName(language, at, timeZone)}`;

function zoneName(language: Language, at: Date, timeZone: string): string {
  const part = formatter(language, timeZone, 'zone')
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
