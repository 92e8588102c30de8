import { useTranslation } from 'react-i18next';
import type { Message } from '../i18n/failure-messages';
import { MARK, Wait, interpolate, useCountdown } from './countdown';

/** A message, translated; a wait in it (`until`) shows as a duration that counts down. */
export function MessageText({ message }: { message: Message }) {
  const { t } = useTranslation();
  const seconds = useCountdown(message.until ?? null);
  if (message.until === undefined) return t(message.key, { ...message.values });
  return interpolate(t(message.key, { ...message.values, duration: MARK }), <Wait seconds={seconds} />);
}
