import { type ReactElement, StrictMode, useEffect } from 'react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { AppRoutes } from './app-routes';
import { ErrorBoundary } from './error-boundary';
import { READY_MARK } from './hydration';

/** Marks the moment the app's first render is committed: from then on the page is the app's ("usable"). */
function Ready({ onReady }: { onReady?: () => void }) {
  useEffect(() => {
    // (jsdom, which the unit tests run in, has no User Timing.)
    if (typeof performance.mark === 'function') performance.mark(READY_MARK);
    onReady?.();
  }, [onReady]);
  return null;
}

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
  onReady?: () => void;
}) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ErrorBoundary>{router(<AppRoutes />)}</ErrorBoundary>
        <Ready onReady={onReady} />
      </I18nextProvider>
    </StrictMode>
  );
}
