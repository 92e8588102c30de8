import { useFormik } from 'formik';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { useFormBehaviour } from '../../app/form-behaviour';
import { byId, useStepEntry } from '../../app/announcer';
import { CONNECTION, CodeNotLoaded, loadCode } from '../../app/load-code';
import { lazySchema } from '../../app/schema-validation';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { MessageText } from '../../components/message-text';
import { PasswordInput } from '../../components/password-input';
import { Select } from '../../components/select';
import { useFollowNextStep } from '../../app/follow-next-step';
import { useStepBack } from '../../app/step-back';
import { useDocumentTitle } from '../../app/use-document-title';
import { isAllowedRedirect } from '../../login/redirect-allow-list';
import { readEmail, readRedirectUrl } from '../../login/sign-in-storage';
import { markLaterStep, readHeldPassword, readStepRegions } from '../../login/sign-in-steps';
import { config } from '../../config/config';
import { REGION_LABEL_KEYS } from '../../config/regions';
import { loginFailureMessage } from '../../i18n/failure-messages';
import type { AvailableRegion } from '../../login/probe-regions';
import type { NextStep } from '../../login/sign-in';
import type { Credentials } from './login-form';

interface RegionStepProps {
  regions: readonly AvailableRegion[];
  /** The email, and the password when still at hand (a reload forgets it: the step then asks for it again). */
  credentials: Credentials;
  onBack: () => void;
  onNextStep: (step: NextStep) => void;
}

/**
 * /login/region: shown when the credentials are valid in more than one region. What it offers is kept for the
 * sign-in (a reload keeps the step); the password is not, so after a reload the step asks for it once more.
 */
export default function RegionPage() {
  const { t } = useTranslation();
  const [regions] = useState(() => readStepRegions(config.regions));
  const [credentials] = useState<Credentials>(() => ({ email: readEmail(), password: readHeldPassword() }));
  const [accepted] = useState(() => isAllowedRedirect(readRedirectUrl(), config.redirectAllowList));
  const back = useStepBack();
  const followNextStep = useFollowNextStep();
  useDocumentTitle(t('region.title'));
  useEffect(markLaterStep, []);
  if (!accepted) return <Navigate to="/invalid-redirect" replace />;
  if (regions.length === 0 || !credentials.email) return <Navigate to="/login" replace />;
  return (
    <section className="card">
      <RegionStep regions={regions} credentials={credentials} onBack={back} onNextStep={followNextStep} />
    </section>
  );
}

/** The user picks where to sign in. */
export function RegionStep({ regions, credentials, onBack, onNextStep }: RegionStepProps) {
  const { t } = useTranslation();
  // Not at hand after a reload: asked for again, never kept.
  const [askPassword] = useState(() => !credentials.password);
  const { alert, setAlert, waiting } = useFormAlert('region-submit');
  const [leaving, setLeaving] = useState(false);
  // A form to fill in: its one field takes the focus (the live region says the step's title).
  useStepEntry(t('region.title'), byId('region'), true);

  const form = useFormBehaviour(
    useFormik({
      initialValues: { region: '', password: '' },
      validate: lazySchema(() =>
        import('./login-schema').then((m) => (askPassword ? m.regionPasswordSchema : m.regionSchema)),
      ),
      onSubmit: async ({ region, password }) => {
        setAlert(null);
        const target = regions.find((candidate) => candidate.region === region);
        if (!target) return;
        try {
          const { signInAt } = await loadCode(() => import('../../login/sign-in-flow'));
          const step = await signInAt(
            target,
            credentials.email,
            askPassword ? password : credentials.password,
            config.redirectAllowList,
          );
          setLeaving(step.kind === 'redirect');
          onNextStep(step);
        } catch (error) {
          setAlert(error instanceof CodeNotLoaded ? CONNECTION : loginFailureMessage(asFailure(error)));
        }
      },
    }),
  );

  const errorKey = form.shownError('region');
  const passwordErrorKey = askPassword ? form.shownError('password') : undefined;
  const shownAlert = alert ?? form.notLoaded;
  useFocusFirstError(
    form.submitCount,
    form.isSubmitting,
    [errorKey && 'region', passwordErrorKey && 'region-password'].filter((id): id is string => Boolean(id)),
  );

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => (waiting ? event.preventDefault() : void form.handleSubmit(event))}
      aria-labelledby="region-title"
    >
      <div className="page-heading">
        <button
          type="button"
          className="icon-button"
          onClick={onBack}
          aria-label={t('region.back')}
          title={t('region.back')}
        >
          <Icon name="arrow-left" />
        </button>
        <h1 id="region-title" className="page-title" tabIndex={-1}>
          {t('region.title')}
        </h1>
      </div>
      <p>{t('region.description')}</p>
      {shownAlert && (
        <Alert focus>
          <MessageText message={shownAlert} />
        </Alert>
      )}
      <Select
        id="region"
        name="region"
        label={t('region.label')}
        placeholder={t('region.placeholder')}
        options={regions.map(({ region }) => ({ value: region, label: t(REGION_LABEL_KEYS[region]) }))}
        value={form.values.region}
        onChange={form.handleChange}
        onBlur={form.handleBlur}
        error={errorKey && t(errorKey)}
      />
      {askPassword && (
        <PasswordInput
          id="region-password"
          name="password"
          autoComplete="current-password"
          label={t('login.passwordLabel')}
          placeholder={t('login.passwordPlaceholder')}
          value={form.values.password}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={passwordErrorKey && t(passwordErrorKey)}
        />
      )}
      <Button id="region-submit" type="submit" variant="primary" busy={form.isSubmitting || leaving} disabled={waiting}>
        {t('region.submit')}
      </Button>
    </form>
  );
}
