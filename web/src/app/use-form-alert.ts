import { useEffect, useState } from 'react';
import { useCountdown } from '../components/countdown';
import type { Message } from '../i18n/failure-messages';

/**
 * The alert above a form. While it asks the user to wait (a message with `until`), `waiting` is true (the form's
 * button stays unavailable); when the wait is over the alert goes, and the button takes the focus if the alert had
 * it, so keyboard users are not dropped on the page.
 */
export function useFormAlert(buttonId: string) {
  const [alert, setAlert] = useState<Message | null>(null);
  const waitLeft = useCountdown(alert?.until ?? null);
  const waiting = alert?.until !== undefined && waitLeft > 0;
  useEffect(() => {
    if (alert?.until === undefined || waitLeft > 0) return;
    const hadFocus = Boolean(document.activeElement?.closest('[role=alert]'));
    setAlert(null);
    if (hadFocus) document.getElementById(buttonId)?.focus();
  }, [alert, waitLeft, buttonId]);
  return { alert, setAlert, waiting };
}
