import { useFormik } from 'formik';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import { Select } from '../../components/select';
import { config } from '../../config/config';
import { REGION_LABEL_KEYS } from '../../config/regions';
import { loginFailureMessage } from '../../i18n/failure-messages';
import type { AvailableRegion } from '../../login/probe-regions';
import type { NextStep } from '../../login/sign-in';
import type { Credentials } from './login-form';

interface RegionStepProps {
  regions: readonly AvailableRegion[];
  credentials: Credentials;
  onBack: () => void;
  onNextStep: (step: NextStep) => void;
}

/** Shown when the credentials are valid in more than one region: the user picks where to sign in. */
export default function RegionStep({ regions, credentials, onBack, onNextStep }: RegionStepProps) {
  const { t } = useTranslation();
  const { alert, setAlert, waiting } = useFormAlert('region-submit');
  const [leaving, setLeaving] = useState(false);
  // A form to fill in: its one field takes the focus (the live region says the step's title).
  useStepEntry(t('region.title'), byId('region'), true);

  const form = useFormBehaviour(
    useFormik({
      initialValues: { region: '' },
      validate: lazySchema(() => import('./login-schema').then((m) => m.regionSchema)),
      onSubmit: async ({ region }) => {
        setAlert(null);
        const target = regions.find((candidate) => candidate.region === region);
        if (!target) return;
        try {
          const { signInAt } = await loadCode(() => import('../../login/sign-in-flow'));
          const step = await signInAt(target, credentials.email, credentials.password, config.redirectAllowList);
          setLeaving(step.kind === 'redirect');
          onNextStep(step);
        } catch (error) {
          setAlert(error instanceof CodeNotLoaded ? CONNECTION : loginFailureMessage(asFailure(error)));
        }
      },
    }),
  );

  const errorKey = form.shownError('region');
  const shownAlert = alert ?? form.notLoaded;
  useFocusFirstError(form.submitCount, form.isSubmitting, errorKey ? ['region'] : []);

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
      <Button id="region-submit" type="submit" variant="primary" busy={form.isSubmitting || leaving} disabled={waiting}>
        {t('region.submit')}
      </Button>
    </form>
  );
}
