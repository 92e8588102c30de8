import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatWait, secondsUntil } from './duration';
import type { Message } from './failure-messages';

/** Translates a Message to plain text; a wait (`until`) becomes `duration` ("45 seconds") as it stands now. */
export function useMessage(): (message: Message | null | undefined) => string | undefined {
  const { t, i18n } = useTranslation();
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const values: Record<string, string | number> = { ...message.values };
      if (message.until !== undefined) values.duration = formatWait(secondsUntil(message.until), i18n.language);
      return t(message.key, values);
    },
    [t, i18n.language],
  );
}
