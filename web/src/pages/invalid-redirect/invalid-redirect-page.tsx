import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../app/use-document-title';
import { Icon } from '../../components/icon';

export function InvalidRedirectPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('invalidRedirect.title'));
  return (
    <section className="card card--warning">
      <Icon name="alert-triangle" size={40} className="icon card__icon" />
      <h1 className="page-title">{t('invalidRedirect.title')}</h1>
      <p>{t('invalidRedirect.description')}</p>
    </section>
  );
}
