import { type ReactElement, StrictMode, useCallback, useRef } from 'react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { AppRoutes } from './app-routes';
import { ErrorBoundary } from './error-boundary';
import { READY_MARK, ReadyContext } from './hydration';

/**
 * The whole app, as the browser runs it (main.tsx, in a BrowserRouter) and as the build prerenders the login screen
 * (web/src/prerender.tsx, in a StaticRouter): one tree, so hydration meets exactly what was rendered.
 */
export function AppTree({
  i18n,
  router,
  onReady,
}: {
  i18n: I18n;
  /** Wraps the routes in the router of the place it runs. */
  router: (routes: ReactElement) => ReactElement;
  /** Once, when the first page is committed (hydrated or rendered): from then on the page is the app's. */
  onReady?: () => void;
}) {
  // A page's Ready stands inside its error boundary, which starts afresh on every navigation: only the first counts.
  const fired = useRef(false);
  const ready = useCallback(() => {
    if (fired.current) return;
    fired.current = true;
    // (jsdom, which the unit tests run in, has no User Timing.)
    if (typeof performance.mark === 'function') performance.mark(READY_MARK);
    onReady?.();
  }, [onReady]);
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ReadyContext.Provider value={ready}>
          <ErrorBoundary>{router(<AppRoutes />)}</ErrorBoundary>
        </ReadyContext.Provider>
      </I18nextProvider>
    </StrictMode>
  );
}
