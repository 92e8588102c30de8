import { useSyncExternalStore } from 'react';

/** The performance mark the app sets once its first render is committed (hydrated or rendered): "usable". */
export const READY_MARK = 'sign-in:ready';

const subscribe = () => () => undefined;

/**
 * True while React renders the login screen at build time (web/shell/prerender.ts) and while the browser hydrates
 * that HTML; false on every later render, and on every render of a page that was not prerendered. A component
 * renders exactly what the build rendered while this is true (no stored state, no query), so hydration never
 * mismatches; React renders it again at once with the real state.
 */
export const useHydrating = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => false,
    () => true,
  );

/** What the user typed into a prerendered field before the app took over (React keeps it in the page). */
export function typedBeforeHydration(id: string): string {
  const field = document.getElementById(id);
  return field instanceof HTMLInputElement ? field.value : '';
}

/** Whether the user is already in a field or on a control (she clicked or tabbed there before the app took over). */
export const userIsOnTheForm = (): boolean =>
  Boolean(document.activeElement && document.activeElement !== document.body);
