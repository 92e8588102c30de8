import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatWait } from '../login/duration';
import type { Message } from './failure-messages';

/** Translates a Message; a `seconds` value also becomes `duration` ("45 seconds") in the current language. */
export function useMessage(): (message: Message | null | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const values: Record<string, string | number> = { ...message.values };
      if (typeof values.seconds === 'number') values.duration = formatWait(values.seconds, i18n.language);
      return t(message.key, values);
    },
    [t, i18n.language],
  );
}
