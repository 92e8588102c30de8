import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/button';
import { Icon } from '../components/icon';
import { browserLocation } from '../login/browser-location';
import { useDocumentTitle } from './use-document-title';

/** What an error boundary shows instead of a broken page. */
export function ErrorPage() {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(t('errorPage.title'));
  // The page that broke may have held the focus: it starts again at this heading, which is read out with it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card card--warning" aria-labelledby="error-page-title">
      <Icon name="alert-triangle" size={40} className="icon card__icon" />
      <h1 id="error-page-title" className="page-title" tabIndex={-1} ref={heading}>
        {t('errorPage.title')}
      </h1>
      <p>{t('errorPage.description')}</p>
      <div className="button-row">
        {/* A full page load, not a client-side navigation: the app state may be what broke. */}
        <a className="button button--secondary" href="/login">
          {t('errorPage.home')}
        </a>
        <Button variant="primary" icon="refresh" onClick={() => browserLocation.reload()}>
          {t('errorPage.refresh')}
        </Button>
      </div>
    </section>
  );
}
