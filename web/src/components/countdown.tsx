import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatWait, secondsUntil } from '../i18n/duration';

/**
 * Whole seconds left until a client-time instant, re-rendered as each second passes until it reaches zero. Read
 * during render, so a new instant counts from its first render.
 */
export function useCountdown(until: number | null): number {
  const [, setTick] = useState(0);
  const seconds = secondsUntil(until);
  useEffect(() => {
    if (until === null) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Wake at each whole-second boundary of the instant, so the display never lags the server's instant.
    const schedule = () => {
      const left = until - Date.now();
      if (left > 0) timer = setTimeout(tick, left % 1000 || 1000);
    };
    const tick = () => {
      setTick((count) => count + 1);
      schedule();
    };
    schedule();
    return () => clearTimeout(timer);
  }, [until]);
  return seconds;
}

/** The wait as it ticks ("29 sec", "2 min"): a timer, which screen readers do not read out at every change. */
export function Wait({ seconds, unitDisplay = 'long' }: { seconds: number; unitDisplay?: 'long' | 'short' }) {
  const { i18n } = useTranslation();
  return (
    <span role="timer" aria-live="off">
      {formatWait(seconds, i18n.language, unitDisplay)}
    </span>
  );
}

/** 'Another try in {seconds}', the wait with its unit; nothing once the wait is over. */
export function Countdown({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  if (seconds <= 0) return null;
  return (
    <p className="countdown">
      {interpolate(t('twoFactor.countdown', { seconds: MARK }), <Wait seconds={seconds} unitDisplay="short" />)}
    </p>
  );
}

/** Stands for a value in a translated text, where a component goes instead. */
export const MARK = '\uE000';

/** A translated text with MARK replaced by `node`. */
export function interpolate(text: string, node: ReactNode): ReactNode {
  const [before, after = ''] = text.split(MARK);
  return (
    <>
      {before}
      {node}
      {after}
    </>
  );
}
