import { type ReactNode, createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

const AnnounceContext = createContext<(text: string) => void>(() => undefined);

/** A polite live region for the whole app: step changes and quiet confirmations ("A new code was sent…"). */
export function Announcer({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const announce = useCallback((next: string) => {
    clearTimeout(timer.current);
    setText('');
    // Emptied first and filled a moment later, so the same words said twice are read out twice.
    timer.current = setTimeout(() => setText(next), 100);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <AnnounceContext value={announce}>
      {children}
      <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="announcer">
        {text}
      </div>
    </AnnounceContext>
  );
}

export const useAnnounce = () => useContext(AnnounceContext);

/** Whether the user came to this page by moving within the app, rather than by loading it. */
export const useMovedHere = () => useLocation().key !== 'default';

/**
 * When a step appears: focus goes to `target` (the first field of a form the user came to fill in, the heading of
 * a step that is read rather than filled), and the polite live region announces the step's title when `announce`
 * (the user moved here within the app; the browser itself reads the title of a page it loads).
 */
export function useStepEntry(title: string, target: () => HTMLElement | null, announce: boolean): void {
  const say = useAnnounce();
  const latest = useRef({ title, target, announce });
  latest.current = { title, target, announce };
  useEffect(() => {
    latest.current.target()?.focus();
    if (latest.current.announce) say(latest.current.title);
  }, [say]);
}

/** The element with this id, for `useStepEntry`. */
export const byId = (id: string) => () => document.getElementById(id);
