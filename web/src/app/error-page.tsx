import { useTranslation } from 'react-i18next';
import { Button } from '../components/button';
import { Icon } from '../components/icon';
import { browserLocation } from '../login/browser-location';

/** What an error boundary shows instead of a broken page. */
export function ErrorPage() {
  const { t } = useTranslation();
  return (
    <section className="card card--warning" role="alert">
      <Icon name="alert-triangle" size={40} className="icon card__icon" />
      <h1 className="page-title">{t('errorPage.title')}</h1>
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
