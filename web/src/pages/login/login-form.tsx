import { useFormik } from 'formik';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { useFormBehaviour } from '../../app/form-behaviour';
import { pressedBeforeHydration, typedBeforeHydration, useHydrating, userIsOnTheForm } from '../../app/hydration';
import { byId, useStepEntry } from '../../app/announcer';
import { CONNECTION, CodeNotLoaded, loadCode } from '../../app/load-code';
import { lazySchema } from '../../app/schema-validation';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { EmailInput } from '../../components/email-input';
import { MessageText } from '../../components/message-text';
import { PasswordInput } from '../../components/password-input';
import { config } from '../../config/config';
import { type Message, loginFailureMessage } from '../../i18n/failure-messages';
import { useMessage } from '../../i18n/use-message';
import type { AvailableRegion } from '../../login/probe-regions';
import type { NextStep } from '../../login/sign-in';
import { platformOf } from '../../login/platform';
import { readClientType, readEmail, readRedirectUrl, storeEmail } from '../../login/sign-in-storage';
import { PasskeySignIn } from './passkey-sign-in';

export interface Credentials extends Record<string, string> {
  email: string;
  password: string;
}

interface LoginFormProps {
  initialValues: Credentials;
  /** The user came back to this step from another one (Back): focus its heading and announce it. */
  returning: boolean;
  /** The user moved to this page within the app: announce it. */
  movedHere: boolean;
  onSeveralRegions: (regions: AvailableRegion[], credentials: Credentials) => void;
  onNextStep: (step: NextStep) => void;
  /** 'Log in with SSO', with what is typed so far. */
  onSso: (entered: Credentials) => void;
}

const FIELD_IDS = { email: 'email', password: 'password' } as const;

export function LoginForm({
  initialValues,
  returning,
  movedHere,
  onSeveralRegions,
  onNextStep,
  onSso,
}: LoginFormProps) {
  const { t } = useTranslation();
  const translate = useMessage();
  const { alert, setAlert, waiting } = useFormAlert('login-submit');
  /** 'Email or password is incorrect' from the server, shown on both fields until either changes. */
  const [credentialsError, setCredentialsError] = useState<Message | null>(null);
  const [leaving, setLeaving] = useState(false);

  const form = useFormBehaviour(
    useFormik<Credentials>({
      initialValues,
      validate: lazySchema(() => import('./login-schema').then((m) => m.loginSchema)),
      onSubmit: async (values) => {
        setAlert(null);
        setCredentialsError(null);
        const credentials = { email: values.email.trim(), password: values.password };
        storeEmail(credentials.email);
        try {
          const { probeRegions, signInAt } = await loadCode(() => import('../../login/sign-in-flow'));
          const regions = await probeRegions({ ...credentials, clientType: readClientType(), targets: config.regions });
          if (regions.length === 0) {
            setCredentialsError({ key: 'errors.invalidCredentials' });
          } else if (regions.length > 1) {
            // The step's code first: a step that cannot load leaves this form with a message, not a broken page.
            await loadCode(() => import('./region-step'));
            onSeveralRegions(regions, credentials);
          } else {
            const step = await signInAt(regions[0], credentials.email, credentials.password, config.redirectAllowList);
            setLeaving(step.kind === 'redirect');
            onNextStep(step);
          }
        } catch (error) {
          if (error instanceof CodeNotLoaded) return setAlert(CONNECTION);
          const message = loginFailureMessage(asFailure(error));
          if (message.key === 'errors.invalidCredentials') setCredentialsError(message);
          else setAlert(message);
        }
      },
    }),
  );

  const { values, submitCount, isSubmitting } = form;
  const shownAlert = alert ?? form.notLoaded;
  const hydrating = useHydrating();
  // This form took over the build's prerendered one: what the user typed before the app ran is in the fields (React
  // leaves it there), and becomes the form's values once hydrated; else the email of this sign-in, if any.
  const [prerendered] = useState(hydrating);
  const { setFieldValue } = form;
  // A press of Log in before the app ran (recorded by the prerendered page's early-press script): submitted once
  // the typed values are the form's.
  const [replay, setReplay] = useState(false);
  useLayoutEffect(() => {
    if (!prerendered) return;
    const email = typedBeforeHydration(FIELD_IDS.email) || readEmail();
    const password = typedBeforeHydration(FIELD_IDS.password);
    if (email) setFieldValue('email', email);
    if (password) setFieldValue('password', password);
    if (pressedBeforeHydration()) setReplay(true);
    // Once, right after hydration: later renders own the fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prerendered]);
  useEffect(() => {
    if (!replay) return;
    setReplay(false);
    void form.handleSubmit();
  }, [replay, form]);
  const [platform] = useState(() => platformOf(readRedirectUrl(), readClientType()));
  // Before a submit attempt a new error is announced by its field; after one, the focus moves to the first field
  // in error, which reads it: a live region as well would say it again (twice more for the credentials error).
  const errorLive = submitCount === 0;
  useEffect(() => setCredentialsError(null), [values.email, values.password]);
  // A new page: its first empty field. Back from another step: the heading, announced.
  useStepEntry(
    t('login.title'),
    returning
      ? byId('login-title')
      : () =>
          // On a prerendered page the user may be in a field already: the focus stays where she put it.
          prerendered && userIsOnTheForm()
            ? null
            : byId(
                initialValues.email || typedBeforeHydration(FIELD_IDS.email) ? FIELD_IDS.password : FIELD_IDS.email,
              )(),
    returning || movedHere,
  );

  const shown = (field: keyof Credentials) => {
    const key = form.shownError(field);
    return key ? t(key) : translate(credentialsError);
  };
  const fieldsWithErrors = (Object.keys(FIELD_IDS) as (keyof typeof FIELD_IDS)[])
    .filter((field) => shown(field))
    .map((field) => FIELD_IDS[field]);
  useFocusFirstError(submitCount, isSubmitting, fieldsWithErrors);

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
      aria-labelledby="login-title"
    >
      <h1 id="login-title" className="page-title" tabIndex={-1}>
        {t('login.title')}
      </h1>
      {hydrating ? (
        // The prerendered screen knows no platform (it is in the query): its line is kept free until the app names it.
        <p className="page-subtitle" aria-hidden="true">
          {'\u00a0'}
        </p>
      ) : (
        platform && (
          <p id="login-platform" className="page-subtitle">
            {t(`platform.${platform}`)}
          </p>
        )
      )}
      {shownAlert && (
        <Alert focus>
          <MessageText message={shownAlert} />
        </Alert>
      )}
      <EmailInput
        id={FIELD_IDS.email}
        label={t('login.emailLabel')}
        placeholder={t('login.emailPlaceholder')}
        value={values.email}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={shown('email')}
        errorLive={errorLive}
        passkeyAutofill
      />
      <PasswordInput
        id={FIELD_IDS.password}
        name="password"
        autoComplete="current-password"
        label={t('login.passwordLabel')}
        placeholder={t('login.passwordPlaceholder')}
        value={values.password}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={shown('password')}
        errorLive={errorLive}
      />
      {/* The email typed so far goes along: the user need not type it again. */}
      <Link className="text-link" to="/forgot-password" state={{ email: values.email.trim() }}>
        {t('login.forgotPassword')}
      </Link>
      {/* Before the app runs, the prerendered button submits nothing (the browser would put the password in the
          address); with two text fields, Enter then does not submit either. */}
      <Button
        id="login-submit"
        type={hydrating ? 'button' : 'submit'}
        variant="primary"
        busy={isSubmitting || leaving}
        disabled={waiting}
      >
        {t('login.submit')}
      </Button>
      <p className="divider">
        <span>{t('login.or')}</span>
      </p>
      <Button
        type="button"
        variant="secondary"
        icon="key"
        onClick={() =>
          void loadCode(() => import('./sso-step')).then(
            () => onSso(values),
            () => setAlert(CONNECTION),
          )
        }
      >
        {t('login.sso')}
      </Button>
      <PasskeySignIn onNextStep={onNextStep} onAlert={setAlert} disabled={waiting} />
    </form>
  );
}
