// Personal alarms: the alarm to each recipient and the one-minute warning to the owner, in each reader's language.
// The owner's own words (`text`) go out as written.
import type { DispatchChannel as ChannelName } from '../db/column-types';
import { composeEmail } from './email';
import { dateTime, inTime } from './formats';
import type { Language } from './languages';
import { t } from './render';

export interface RenderedMessage {
  language: Language;
  subject: string;
  body: string;
  html?: string;
}

export interface AlarmFacts {
  owner: string;
  text: string;
  dispatchAt: Date;
  latitude: number | null;
  longitude: number | null;
}

/** Email gets an HTML part too; SMS, push and voice the plain text. */
function forChannel(language: Language, channel: ChannelName, subject: string, body: string): RenderedMessage {
  return channel === 'email' ? { ...composeEmail(language, subject, [{ text: body }]) } : { language, subject, body };
}

export function personalAlarmMessage(
  language: Language,
  channel: ChannelName,
  alarm: AlarmFacts,
  timeZone: string,
  /** A summary of repeats (modules/personal-alarms/personal-alarms.repeats.ts): how many, since when. */
  repeats?: { count: number; since: Date },
): RenderedMessage {
  const lines = [t(language, 'personalAlarm.text', { owner: alarm.owner, text: alarm.text })];
  if (repeats)
    lines.push(
      t(language, 'personalAlarm.repeats', {
        count: repeats.count,
        since: dateTime(language, repeats.since, timeZone),
      }),
    );
  if (alarm.latitude !== null && alarm.longitude !== null) {
    // Coordinates keep the decimal point in every language: "59,3293, 18,0686" would not read as a pair.
    const mapUrl = `https://www.openstreetmap.org/?mlat=${alarm.latitude}&mlon=${alarm.longitude}`;
    lines.push(t(language, 'personalAlarm.location', { coordinates: `${alarm.latitude}, ${alarm.longitude}`, mapUrl }));
  }
  lines.push(t(language, 'personalAlarm.ranOut', { time: dateTime(language, alarm.dispatchAt, timeZone) }));
  return forChannel(language, channel, t(language, 'personalAlarm.subject', { owner: alarm.owner }), lines.join('\n'));
}

export function personalAlarmWarning(
  language: Language,
  channel: ChannelName,
  alarm: Pick<AlarmFacts, 'text'>,
  secondsLeft: number,
): RenderedMessage {
  const body = t(language, 'personalAlarm.warning', { inTime: inTime(language, secondsLeft), text: alarm.text });
  return forChannel(language, channel, t(language, 'personalAlarm.warningSubject'), body);
}

/** A change of an alarm as recorded (each changed field from → to); times are ISO strings. */
export interface AlarmChange {
  /** Who changed it; null when that person no longer exists. */
  actor: string | null;
  text: string;
  dispatchAt: Date;
  changes: {
    active?: { to: unknown };
    dispatchTime?: { from: unknown; to: unknown };
    text?: { to: unknown };
    oneMinuteWarning?: { to: unknown };
    location?: unknown;
    recipientUserIds?: unknown;
    groupIds?: unknown;
  };
}

/** The owner's notice that someone else changed their alarm: who, and what is different now. */
export function personalAlarmChangedNotice(
  language: Language,
  channel: ChannelName,
  change: AlarmChange,
  timeZone: string,
): RenderedMessage {
  const actor = change.actor ?? t(language, 'personalAlarmChanged.someone');
  const c = change.changes;
  const when = (value: unknown) => dateTime(language, new Date(String(value)), timeZone);
  const lines = [t(language, 'personalAlarmChanged.intro', { actor, text: change.text })];
  if (c.active?.to === false) lines.push(t(language, 'personalAlarmChanged.stopped'));
  if (c.active?.to === true)
    lines.push(t(language, 'personalAlarmChanged.started', { time: dateTime(language, change.dispatchAt, timeZone) }));
  if (c.dispatchTime)
    lines.push(
      t(language, 'personalAlarmChanged.moved', { time: when(c.dispatchTime.to), previous: when(c.dispatchTime.from) }),
    );
  if (c.text) lines.push(t(language, 'personalAlarmChanged.newText', { text: String(c.text.to) }));
  if (c.oneMinuteWarning)
    lines.push(
      t(language, c.oneMinuteWarning.to ? 'personalAlarmChanged.warningOn' : 'personalAlarmChanged.warningOff'),
    );
  if (c.location) lines.push(t(language, 'personalAlarmChanged.location'));
  if (c.recipientUserIds || c.groupIds) lines.push(t(language, 'personalAlarmChanged.recipients'));
  lines.push(
    change.actor === null
      ? t(language, 'personalAlarmChanged.contactAdministrator')
      : t(language, 'personalAlarmChanged.contact', { actor }),
  );
  return forChannel(language, channel, t(language, 'personalAlarmChanged.subject', { actor }), lines.join('\n'));
}
