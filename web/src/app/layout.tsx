import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { Icon } from '../components/icon';
import { Loading } from '../components/loading';
import { Announcer } from './announcer';
import { ErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Ready } from './hydration';
import { LanguagePicker } from './language-picker';

export function Layout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    // The live region stays in place across pages: screen readers only follow regions they already know.
    <Announcer>
      <div className="layout">
        <header className="layout__header">
          <Link to="/login" className="logo" aria-label={t('app.logoLabel')}>
            <Icon name="shield" size={32} />
          </Link>
          <LanguagePicker />
        </header>
        <main className="layout__main">
          {/* Keyed by path: moving to another page gives it a fresh start after an error. */}
          <ErrorBoundary key={pathname}>
            <Suspense fallback={<Loading />}>
              <Outlet />
              <Ready />
            </Suspense>
          </ErrorBoundary>
        </main>
        <Footer />
      </div>
    </Announcer>
  );
}
