import { useFormik } from 'formik';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { useFormBehaviour } from '../../app/form-behaviour';
import { byId, useMovedHere, useStepEntry } from '../../app/announcer';
import { schemaErrors } from '../../app/schema-validation';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { EmailInput } from '../../components/email-input';
import { Icon } from '../../components/icon';
import { MessageText } from '../../components/message-text';
import { config } from '../../config/config';
import { readClientType } from '../../login/sign-in-storage';
import { passwordFailureMessage } from '../../password/password-messages';
import { requestResetEverywhere } from '../../password/request-reset';
import { forgotPasswordSchema } from './forgot-password-schema';

/**
 * Spec section 2: the header with the back link to /login; below it the request for a reset link. The link is
 * asked for in every region the client signs in at, and the confirmation is the same whatever the email.
 */
export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { alert, setAlert, waiting } = useFormAlert('forgot-submit');
  const carried: unknown = useLocation().state;
  useDocumentTitle(t('forgotPassword.title'));
  useStepEntry(t('forgotPassword.title'), byId('email'), useMovedHere());

  const form = useFormBehaviour(
    useFormik({
      // The email typed on the login form, when the user came from there.
      initialValues: { email: emailIn(carried) },
      validate: (values) => schemaErrors(forgotPasswordSchema, values),
      onSubmit: async (values) => {
        setAlert(null);
        const email = values.email.trim();
        try {
          await requestResetEverywhere({
            email,
            clientType: readClientType(),
            targets: config.regions,
            language: i18n.language,
          });
          setSentTo(email);
        } catch (error) {
          setAlert(passwordFailureMessage(asFailure(error)));
        }
      },
    }),
  );

  const errorKey = form.shownError('email');
  useFocusFirstError(form.submitCount, form.isSubmitting, errorKey ? ['email'] : []);

  return (
    <section className="card" aria-labelledby="forgot-password-title">
      <header className="page-heading">
        <Link
          to="/login"
          className="icon-button"
          aria-label={t('forgotPassword.back')}
          title={t('forgotPassword.back')}
        >
          <Icon name="arrow-left" />
        </Link>
        <h1 id="forgot-password-title" className="page-title" tabIndex={-1}>
          {t('forgotPassword.title')}
        </h1>
      </header>
      {sentTo === null ? (
        <form
          className="stack"
          noValidate
          onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
          aria-labelledby="forgot-password-title"
        >
          <p>{t('forgotPassword.description')}</p>
          {alert && (
            <Alert focus>
              <MessageText message={alert} />
            </Alert>
          )}
          <EmailInput
            id="email"
            label={t('login.emailLabel')}
            placeholder={t('login.emailPlaceholder')}
            value={form.values.email}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={errorKey && t(errorKey)}
          />
          <Button
            id="forgot-submit"
            type="submit"
            variant="primary"
            icon="mail"
            busy={form.isSubmitting}
            disabled={waiting}
          >
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
  // The form that had focus is gone: keyboard and screen-reader users continue from the confirmation, which is
  // itself a polite live region (role=status), so the app's announcer stays quiet.
  useStepEntry(t('forgotPassword.sentTitle'), byId('forgot-password-sent'), false);
  return (
    <div className="stack" role="status">
      <h2 id="forgot-password-sent" tabIndex={-1} className="section-title">
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

function emailIn(state: unknown): string {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
}
