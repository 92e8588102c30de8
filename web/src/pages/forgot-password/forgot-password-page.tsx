import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../app/use-document-title';
import { Icon } from '../../components/icon';

/** Spec section 2: only a header with a back link to /login; no form is shown and no call is made. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('forgotPassword.title'));
  return (
    <section className="card">
      <header className="page-heading">
        <Link to="/login" className="icon-button" aria-label={t('forgotPassword.back')} title={t('forgotPassword.back')}>
          <Icon name="arrow-left" />
        </Link>
        <h1 className="page-title">{t('forgotPassword.title')}</h1>
      </header>
    </section>
  );
}
