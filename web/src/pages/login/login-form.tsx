import { useFormik } from 'formik';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { lazySchema } from '../../app/lazy-schema';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PasswordInput } from '../../components/password-input';
import { EmailInput } from '../../components/email-input';
import { config } from '../../config/config';
import { type Message, loginFailureMessage } from '../../i18n/failure-messages';
import { useMessage } from '../../i18n/use-message';
import type { AvailableRegion } from '../../login/probe-regions';
import type { NextStep } from '../../login/sign-in';
import { readClientType } from '../../login/sign-in-storage';

export interface Credentials {
  email: string;
  password: string;
}

interface LoginFormProps {
  initialValues: Credentials;
  onSeveralRegions: (regions: AvailableRegion[], credentials: Credentials) => void;
  onNextStep: (step: NextStep) => void;
  /** 'Log in with SSO', with what is typed so far. */
  onSso: (entered: Credentials) => void;
}

const FIELD_IDS = { email: 'email', password: 'password' } as const;

export function LoginForm({ initialValues, onSeveralRegions, onNextStep, onSso }: LoginFormProps) {
  const { t } = useTranslation();
  const translate = useMessage();
  const [alert, setAlert] = useState<Message | null>(null);
  /** 'Email or password is incorrect' from the server, shown on both fields until either changes. */
  const [credentialsError, setCredentialsError] = useState<Message | null>(null);
  const [leaving, setLeaving] = useState(false);

  const formik = useFormik<Credentials>({
    initialValues,
    validate: lazySchema(() => import('./login-schema').then((m) => m.loginSchema)),
    onSubmit: async (values) => {
      setAlert(null);
      setCredentialsError(null);
      const credentials = { email: values.email.trim(), password: values.password };
      try {
        const { probeRegions, signInAt } = await import('../../login/sign-in-flow');
        const regions = await probeRegions({ ...credentials, clientType: readClientType(), targets: config.regions });
        if (regions.length === 0) {
          setCredentialsError({ key: 'errors.invalidCredentials' });
        } else if (regions.length > 1) {
          onSeveralRegions(regions, credentials);
        } else {
          const step = await signInAt(regions[0], credentials.email, credentials.password, config.redirectAllowList);
          setLeaving(step.kind === 'redirect');
          onNextStep(step);
        }
      } catch (error) {
        const message = loginFailureMessage(asFailure(error));
        if (message.key === 'errors.invalidCredentials') setCredentialsError(message);
        else setAlert(message);
      }
    },
  });

  const { values, errors, touched, submitCount, isSubmitting } = formik;
  useEffect(() => setCredentialsError(null), [values.email, values.password]);

  const shown = (field: keyof Credentials) =>
    (touched[field] || submitCount > 0) && errors[field] ? t(errors[field]) : translate(credentialsError);
  const fieldsWithErrors = (Object.keys(FIELD_IDS) as (keyof Credentials)[]).filter((field) => shown(field)).map((field) => FIELD_IDS[field]);
  useFocusFirstError(submitCount, isSubmitting, fieldsWithErrors);

  return (
    <form className="stack" noValidate onSubmit={formik.handleSubmit} aria-labelledby="login-title">
      <h1 id="login-title" className="page-title">
        {t('login.title')}
      </h1>
      {alert && <Alert>{translate(alert)}</Alert>}
      <EmailInput
        id={FIELD_IDS.email}
        label={t('login.emailLabel')}
        placeholder={t('login.emailPlaceholder')}
        value={values.email}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
        error={shown('email')}
      />
      <PasswordInput
        id={FIELD_IDS.password}
        name="password"
        autoComplete="current-password"
        label={t('login.passwordLabel')}
        placeholder={t('login.passwordPlaceholder')}
        value={values.password}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
        error={shown('password')}
      />
      <Link className="text-link" to="/forgot-password">
        {t('login.forgotPassword')}
      </Link>
      <Button type="submit" variant="primary" busy={isSubmitting || leaving}>
        {t('login.submit')}
      </Button>
      <p className="divider">
        <span>{t('login.or')}</span>
      </p>
      <Button type="button" variant="secondary" icon="key" onClick={() => onSso(values)}>
        {t('login.sso')}
      </Button>
    </form>
  );
}
