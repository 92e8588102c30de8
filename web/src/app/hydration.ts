import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';

/** The performance mark the app sets once its first page is committed (hydrated or rendered): "usable". */
export const READY_MARK = 'sign-in:ready';

/** Called by `Ready` when a page is committed; the app tree (app-tree.tsx) acts on the first call only. */
export const ReadyContext = createContext<(() => void) | undefined>(undefined);

/**
 * Says a page is committed. It stands inside the page's Suspense boundary (app/layout.tsx), after the page: React
 * may hydrate a boundary after the rest of the tree, and a language switched before the page itself is hydrated
 * would meet the prerendered text in the other language (a hydration mismatch).
 */
export function Ready(): null {
  const ready = useContext(ReadyContext);
  useEffect(() => ready?.(), [ready]);
  return null;
}

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

/** The attribute the prerendered login screen's early-press script (web/shell/early-press.js) sets on <html>. */
export const EARLY_PRESS_ATTRIBUTE = 'data-early-press';

/**
 * Whether the user pressed Log in (or Enter in a field) before the app took the prerendered form over; answered
 * once (the mark is removed), so the press is replayed once.
 */
export function pressedBeforeHydration(): boolean {
  const root = document.documentElement;
  if (!root.hasAttribute(EARLY_PRESS_ATTRIBUTE)) return false;
  root.removeAttribute(EARLY_PRESS_ATTRIBUTE);
  return true;
}
