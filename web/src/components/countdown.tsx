import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secondsUntil } from '../login/duration';

/** Whole seconds left until a client-time instant, re-rendered as each second passes until it reaches zero. */
export function useCountdown(until: number | null): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(until));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const left = secondsUntil(until);
      setSeconds(left);
      // Wake at the next whole-second boundary, so the display never lags the server's instant.
      if (left > 0 && until !== null) timer = setTimeout(tick, (until - Date.now()) % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [until]);
  return seconds;
}

/** 'Another try in {seconds}'; nothing once the wait is over. */
export function Countdown({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  if (seconds <= 0) return null;
  return (
    <p className="countdown" role="timer">
      {t('twoFactor.countdown', { seconds })}
    </p>
  );
}
