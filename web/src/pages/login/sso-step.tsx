import { useFormik } from 'formik';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { useStepBack } from '../../app/step-back';
import { isAllowedRedirect } from '../../login/redirect-allow-list';
import {
  type StoredSsoTarget,
  forgetWhoSignsIn,
  markLaterStep,
  readSsoTargets,
  storeSsoTargets,
} from '../../login/sign-in-steps';
import { useFormBehaviour } from '../../app/form-behaviour';
import { byId, useStepEntry } from '../../app/announcer';
import { lazySchema } from '../../app/schema-validation';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { useCountdown } from '../../components/countdown';
import { Icon } from '../../components/icon';
import { MessageText } from '../../components/message-text';
import { Select } from '../../components/select';
import { EmailInput } from '../../components/email-input';
import { config } from '../../config/config';
import { REGION_LABEL_KEYS } from '../../config/regions';
import type { Message } from '../../i18n/failure-messages';
import { EMAIL_FIELD_KEYS, ssoFailureMessage } from '../../i18n/sso-messages';
import { useMessage } from '../../i18n/use-message';
import { browserLocation } from '../../login/browser-location';
import { readClientType, readEmail, readRedirectUrl, storeEmail } from '../../login/sign-in-storage';
import { SsoFailure, probeSsoRegions, startSso } from '../../login/sso-flow';

export interface SsoStepProps {
  /** What was typed in the login form's email field, to start from. */
  initialEmail: string;
  onBack: () => void;
  /** 'Log in as someone else': back to an empty login form. */
  onSomeoneElse: () => void;
}

interface Leaving {
  alert: Message | null;
  emailProblem: Message | null;
  leaving: boolean;
  /** Opens the SSO session in the target region and sends the browser to the identity provider. */
  leaveFor: (target: StoredSsoTarget, email: string) => Promise<void>;
  fail: (error: unknown) => void;
  clear: () => void;
}

function useLeaveForIdentityProvider(): Leaving {
  const [alert, setAlert] = useState<Message | null>(null);
  const [emailProblem, setEmailProblem] = useState<Message | null>(null);
  const [leaving, setLeaving] = useState(false);
  const fail = useCallback((error: unknown) => {
    const message = ssoFailureMessage(error, 'start');
    if (EMAIL_FIELD_KEYS.includes(message.key)) setEmailProblem(message);
    else setAlert(message);
  }, []);
  const clear = useCallback(() => {
    setAlert(null);
    setEmailProblem(null);
  }, []);
  const leaveFor = useCallback(async (target: StoredSsoTarget, email: string) => {
    const authorizationUrl = await startSso(target, email);
    setLeaving(true);
    browserLocation.assign(authorizationUrl);
  }, []);
  return { alert, emailProblem, leaving, leaveFor, fail, clear };
}

/**
 * /login/sso/email, 'Log in with SSO': the email picks the organisation. Its domain is looked up in every region the
 * client signs in at; the browser then goes to the organisation's identity provider (several regions: the user
 * picks one at /login/sso/region). The email is kept for the sign-in: a reload, Back from the identity provider
 * and a cancelled sign-on find it in place.
 */
export default function SsoPage() {
  const navigate = useNavigate();
  const back = useStepBack();
  const [accepted] = useState(() => isAllowedRedirect(readRedirectUrl(), config.redirectAllowList));
  const [initialEmail] = useState(readEmail);
  useEffect(markLaterStep, []);
  if (!accepted) return <Navigate to="/invalid-redirect" replace />;
  return (
    <section className="card">
      <SsoEmailForm
        initialEmail={initialEmail}
        onBack={back}
        onSomeoneElse={() => {
          forgetWhoSignsIn();
          void navigate('/login', { replace: true });
        }}
        onSeveralRegions={(_email, targets) => {
          storeSsoTargets(targets);
          void navigate('/login/sso/region');
        }}
      />
    </section>
  );
}

/** /login/sso/region: the domain signs in with SSO in several regions; the user picks one. */
export function SsoRegionPage() {
  const back = useStepBack();
  const [accepted] = useState(() => isAllowedRedirect(readRedirectUrl(), config.redirectAllowList));
  const [email] = useState(readEmail);
  const [targets] = useState(() => readSsoTargets(config.regions));
  useEffect(markLaterStep, []);
  if (!accepted) return <Navigate to="/invalid-redirect" replace />;
  if (targets.length === 0 || !email) return <Navigate to="/login/sso/email" replace />;
  return (
    <section className="card">
      <SsoRegionChoice email={email} targets={targets} onBack={back} />
    </section>
  );
}

function SsoEmailForm({
  initialEmail,
  onBack,
  onSomeoneElse,
  onSeveralRegions,
}: SsoStepProps & { onSeveralRegions: (email: string, targets: StoredSsoTarget[]) => void }) {
  const { t } = useTranslation();
  const translate = useMessage();
  const { alert, emailProblem, leaving, leaveFor, fail, clear } = useLeaveForIdentityProvider();
  const waiting = useCountdown(alert?.until ?? null) > 0;
  useDocumentTitle(t('sso.title'));
  // The email field takes the focus: with the email carried over from the login form, Enter goes on at once.
  useStepEntry(t('sso.title'), byId('sso-email'), true);

  const form = useFormBehaviour(
    useFormik({
      initialValues: { email: initialEmail },
      validate: lazySchema(() => import('./login-schema').then((m) => m.ssoSchema)),
      onSubmit: async (values) => {
        clear();
        const email = values.email.trim();
        // Kept for this sign-in: a single sign-on cancelled at the identity provider starts again from it.
        storeEmail(email);
        try {
          const targets = await probeSsoRegions({ email, clientType: readClientType(), targets: config.regions });
          if (targets.length === 0) throw new SsoFailure('NO_SSO_FOR_DOMAIN');
          if (targets.length > 1) onSeveralRegions(email, targets);
          else await leaveFor(targets[0], email);
        } catch (error) {
          fail(error);
        }
      },
    }),
  );
  const { values, submitCount, isSubmitting } = form;
  const shownAlert = alert ?? form.notLoaded;
  useEffect(clear, [values.email, clear]);

  const errorKey = form.shownError('email');
  const error = errorKey ? t(errorKey) : translate(emailProblem);
  useFocusFirstError(submitCount, isSubmitting, error ? ['sso-email'] : []);

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
      aria-labelledby="sso-title"
    >
      <div className="page-heading">
        <button type="button" className="icon-button" onClick={onBack} aria-label={t('sso.back')} title={t('sso.back')}>
          <Icon name="arrow-left" />
        </button>
        <h1 id="sso-title" className="page-title" tabIndex={-1}>
          {t('sso.title')}
        </h1>
      </div>
      <p>{t('sso.description')}</p>
      {shownAlert && (
        <Alert focus>
          <MessageText message={shownAlert} />
        </Alert>
      )}
      <EmailInput
        id="sso-email"
        label={t('sso.emailLabel')}
        placeholder={t('login.emailPlaceholder')}
        value={values.email}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={error}
      />
      <Button type="submit" variant="primary" icon="key" busy={isSubmitting || leaving} disabled={waiting}>
        {t('sso.submit')}
      </Button>
      <Button variant="tertiary" icon="log-in" onClick={onSomeoneElse}>
        {t('login.someoneElse')}
      </Button>
    </form>
  );
}

function SsoRegionChoice({
  email,
  targets,
  onBack,
}: {
  email: string;
  targets: StoredSsoTarget[];
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const { alert, emailProblem, leaving, leaveFor, fail, clear } = useLeaveForIdentityProvider();
  const problem = alert ?? emailProblem;
  const waiting = useCountdown(problem?.until ?? null) > 0;
  useDocumentTitle(t('region.title'));
  useStepEntry(t('region.title'), byId('sso-region'), true);

  const form = useFormBehaviour(
    useFormik({
      initialValues: { region: '' },
      validate: lazySchema(() => import('./login-schema').then((m) => m.regionSchema)),
      onSubmit: async ({ region }) => {
        clear();
        const target = targets.find((candidate) => candidate.region === region);
        if (!target) return;
        try {
          await leaveFor(target, email);
        } catch (error) {
          fail(error);
        }
      },
    }),
  );
  const errorKey = form.shownError('region');
  const shownAlert = problem ?? form.notLoaded;
  useFocusFirstError(form.submitCount, form.isSubmitting, errorKey ? ['sso-region'] : []);

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
      aria-labelledby="sso-region-title"
    >
      <div className="page-heading">
        <button type="button" className="icon-button" onClick={onBack} aria-label={t('sso.back')} title={t('sso.back')}>
          <Icon name="arrow-left" />
        </button>
        <h1 id="sso-region-title" className="page-title" tabIndex={-1}>
          {t('region.title')}
        </h1>
      </div>
      <p>{t('sso.regionDescription')}</p>
      {shownAlert && (
        <Alert focus>
          <MessageText message={shownAlert} />
        </Alert>
      )}
      <Select
        id="sso-region"
        name="region"
        label={t('region.label')}
        placeholder={t('region.placeholder')}
        options={targets.map(({ region }) => ({ value: region, label: t(REGION_LABEL_KEYS[region]) }))}
        value={form.values.region}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={errorKey && t(errorKey)}
      />
      <Button type="submit" variant="primary" icon="key" busy={form.isSubmitting || leaving} disabled={waiting}>
        {t('sso.submit')}
      </Button>
    </form>
  );
}
