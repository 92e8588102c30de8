import { useFormik } from 'formik';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asFailure } from '../../api/api-failure';
import { lazySchema } from '../../app/lazy-schema';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { Select } from '../../components/select';
import { config } from '../../config/config';
import { REGION_LABEL_KEYS } from '../../config/regions';
import { type Message, loginFailureMessage } from '../../i18n/failure-messages';
import { useMessage } from '../../i18n/use-message';
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
export function RegionStep({ regions, credentials, onBack, onNextStep }: RegionStepProps) {
  const { t } = useTranslation();
  const translate = useMessage();
  const [alert, setAlert] = useState<Message | null>(null);
  const [leaving, setLeaving] = useState(false);

  const formik = useFormik({
    initialValues: { region: '' },
    validate: lazySchema(() => import('./login-schema').then((m) => m.regionSchema)),
    onSubmit: async ({ region }) => {
      setAlert(null);
      const target = regions.find((candidate) => candidate.region === region);
      if (!target) return;
      try {
        const { signInAt } = await import('../../login/sign-in-flow');
        const step = await signInAt(target, credentials.email, credentials.password, config.redirectAllowList);
        setLeaving(step.kind === 'redirect');
        onNextStep(step);
      } catch (error) {
        setAlert(loginFailureMessage(asFailure(error)));
      }
    },
  });

  const error = (formik.touched.region || formik.submitCount > 0) && formik.errors.region ? t(formik.errors.region) : undefined;
  useFocusFirstError(formik.submitCount, formik.isSubmitting, error ? ['region'] : []);

  return (
    <form className="stack" noValidate onSubmit={formik.handleSubmit} aria-labelledby="region-title">
      <div className="page-heading">
        <button type="button" className="icon-button" onClick={onBack} aria-label={t('region.back')} title={t('region.back')}>
          <Icon name="arrow-left" />
        </button>
        <h1 id="region-title" className="page-title">
          {t('region.title')}
        </h1>
      </div>
      <p>{t('region.description')}</p>
      {alert && <Alert>{translate(alert)}</Alert>}
      <Select
        id="region"
        name="region"
        label={t('region.label')}
        placeholder={t('region.placeholder')}
        options={regions.map(({ region }) => ({ value: region, label: t(REGION_LABEL_KEYS[region]) }))}
        value={formik.values.region}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
        error={error}
      />
      <Button type="submit" variant="primary" busy={formik.isSubmitting || leaving}>
        {t('region.submit')}
      </Button>
    </form>
  );
}
