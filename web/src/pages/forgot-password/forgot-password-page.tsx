import { useFormik } from 'formik';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { EmailInput } from '../../components/email-input';
import { config } from '../../config/config';
import type { Message } from '../../i18n/failure-messages';
import { useMessage } from '../../i18n/use-message';
import { readClientType } from '../../login/sign-in-storage';
import { passwordFailureMessage } from '../../password/password-messages';
import { requestResetEverywhere } from '../../password/request-reset';
import { forgotPasswordSchema } from './forgot-password-schema';

/**
 * Spec section 2: the header with the back link to /login; below it the request for a reset link. The link is
 * asked for in every region the client signs in at, and the confirmation is the same whatever the email.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const translate = useMessage();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [alert, setAlert] = useState<Message | null>(null);
  useDocumentTitle(t('forgotPassword.title'));

  const formik = useFormik({
    initialValues: { email: '' },
    validationSchema: forgotPasswordSchema,
    onSubmit: async (values) => {
      setAlert(null);
      const email = values.email.trim();
      try {
        await requestResetEverywhere({ email, clientType: readClientType(), targets: config.regions });
        setSentTo(email);
      } catch (error) {
        setAlert(passwordFailureMessage(asFailure(error)));
      }
    },
  });

  const error = (formik.touched.email || formik.submitCount > 0) && formik.errors.email ? t(formik.errors.email) : undefined;
  useFocusFirstError(formik.submitCount, formik.isSubmitting, error ? ['email'] : []);

  return (
    <section className="card" aria-labelledby="forgot-password-title">
      <header className="page-heading">
        <Link to="/login" className="icon-button" aria-label={t('forgotPassword.back')} title={t('forgotPassword.back')}>
          <Icon name="arrow-left" />
        </Link>
        <h1 id="forgot-password-title" className="page-title">
          {t('forgotPassword.title')}
        </h1>
      </header>
      {sentTo === null ? (
        <form className="stack" noValidate onSubmit={formik.handleSubmit} aria-labelledby="forgot-password-title">
          <p>{t('forgotPassword.description')}</p>
          {alert && <Alert>{translate(alert)}</Alert>}
          <EmailInput
            id="email"
            label={t('login.emailLabel')}
            placeholder={t('login.emailPlaceholder')}
            value={formik.values.email}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={error}
          />
          <Button type="submit" variant="primary" icon="mail" busy={formik.isSubmitting}>
            {t('forgotPassword.submit')}
          </Button>
        </form>
      ) : (
        <Confirmation email={sentTo} />
      )}
    </section>
  );
}

function Confirmation({ email }: { email: string }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had focus is gone: keyboard and screen-reader users continue from the confirmation.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="stack" role="status">
      <h2 ref={heading} tabIndex={-1} className="section-title">
        <Icon name="mail" />
        {t('forgotPassword.sentTitle')}
      </h2>
      <p>{t('forgotPassword.sent', { email })}</p>
      <p className="muted">{t('forgotPassword.sentHint')}</p>
      <Link className="text-link" to="/login">
        {t('forgotPassword.back')}
      </Link>
    </div>
  );
}
