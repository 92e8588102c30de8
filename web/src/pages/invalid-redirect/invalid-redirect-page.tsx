import { useTranslation } from 'react-i18next';
import { byId, useMovedHere, useStepEntry } from '../../app/announcer';
import { useDocumentTitle } from '../../app/use-document-title';
import { Icon } from '../../components/icon';

export function InvalidRedirectPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('invalidRedirect.title'));
  useStepEntry(t('invalidRedirect.title'), byId('invalid-redirect-title'), useMovedHere());
  return (
    <section className="card card--warning" aria-labelledby="invalid-redirect-title">
      <Icon name="alert-triangle" size={40} className="icon card__icon" />
      <h1 id="invalid-redirect-title" className="page-title" tabIndex={-1}>
        {t('invalidRedirect.title')}
      </h1>
      <p>{t('invalidRedirect.description')}</p>
    </section>
  );
}
