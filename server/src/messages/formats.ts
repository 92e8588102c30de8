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

/** "22 Nov 2026, 10:00 CET": a moment in the region's time zone, with the zone named so it is never ambiguous. */
export const dateTime = (language: Language, at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat(intlLocale[language], { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at) +
  ` ${zoneName(language, at, timeZone)}`;

function zoneName(language: Language, at: Date, timeZone: string): string {
  const part = new Intl.DateTimeFormat(intlLocale[language], { timeZone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
