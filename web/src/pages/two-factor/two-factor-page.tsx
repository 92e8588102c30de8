import { useFormik } from 'formik';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { object, string } from 'yup';
import { asFailure } from '../../api/api-failure';
import { clientFor } from '../../api/client';
import { verifyOtp } from '../../api/otp-challenge';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Countdown, useCountdown } from '../../components/countdown';
import { TextInput } from '../../components/text-input';
import { config } from '../../config/config';
import { type Message, twoFactorFailureMessage } from '../../i18n/failure-messages';
import { useMessage } from '../../i18n/use-message';
import { isSmsUnverified } from '../../login/factors';
import { CODE_LENGTH, sanitizeCode } from '../../login/one-time-code';
import { completeSignIn } from '../../login/sign-in';
import { type PendingSession, readPendingSession } from '../../login/sign-in-storage';
import { useFollowNextStep } from '../login/follow-next-step';
import { useOtpChallenge } from './use-otp-challenge';

const codeSchema = object({
  code: string()
    .required('validation.codeRequired')
    .matches(new RegExp(`^\\d{${CODE_LENGTH}}$`), 'validation.codeLength'),
});

export function TwoFactorPage() {
  const [pending] = useState(readPendingSession);
  if (!pending) return <Navigate to="/login" replace />;
  return <TwoFactor pending={pending} />;
}

function TwoFactor({ pending }: { pending: PendingSession }) {
  const { t } = useTranslation();
  const translate = useMessage();
  const followNextStep = useFollowNextStep();
  const challenge = useOtpChallenge(pending);
  const secondsLeft = useCountdown(challenge.resendAt);
  const [codeError, setCodeError] = useState<Message | null>(null);
  const [leaving, setLeaving] = useState(false);
  const title = challenge.channel === 'email' ? t('twoFactor.titleEmail') : t('twoFactor.titleSms');
  useDocumentTitle(title);

  const formik = useFormik({
    initialValues: { code: '' },
    validationSchema: codeSchema,
    onSubmit: async ({ code }) => {
      setCodeError(null);
      try {
        const session = await verifyOtp(clientFor(pending.baseUrl), pending.session, challenge.channel, code);
        const step = completeSignIn(session, config.redirectAllowList);
        setLeaving(step.kind === 'redirect');
        followNextStep(step);
      } catch (error) {
        setCodeError(twoFactorFailureMessage(asFailure(error)));
      }
    },
  });
  useEffect(() => setCodeError(null), [formik.values.code]);

  const schemaError = (formik.touched.code || formik.submitCount > 0) && formik.errors.code ? t(formik.errors.code) : undefined;
  const error = schemaError ?? translate(codeError);
  useFocusFirstError(formik.submitCount, formik.isSubmitting, error ? ['code'] : []);
  const resendDisabled = challenge.requesting || secondsLeft > 0;

  return (
    <section className="card">
      <form className="stack" noValidate onSubmit={formik.handleSubmit} aria-labelledby="two-factor-title">
        <h1 id="two-factor-title" className="page-title">
          {title}
        </h1>
        <p aria-live="polite">
          {challenge.sentTo
            ? t('twoFactor.sentTo', { destination: challenge.sentTo })
            : challenge.requesting && t('twoFactor.sending')}
        </p>
        {challenge.alert && <Alert>{translate(challenge.alert)}</Alert>}
        <TextInput
          id="code"
          name="code"
          label={t('twoFactor.codeLabel')}
          message={t('twoFactor.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          className="field__input--code"
          value={formik.values.code}
          onChange={(event) => void formik.setFieldValue('code', sanitizeCode(event.target.value))}
          onBlur={formik.handleBlur}
          error={error}
        />
        <Button type="submit" variant="primary" busy={formik.isSubmitting || leaving}>
          {t('twoFactor.verify')}
        </Button>
        <Countdown seconds={secondsLeft} />
        <div className="button-row">
          <Button variant="tertiary" icon="mail" disabled={resendDisabled} onClick={() => void challenge.request('email')}>
            {t('twoFactor.resendEmail')}
          </Button>
          {isSmsUnverified(pending.session.factors) && (
            <Button variant="tertiary" icon="phone" disabled={resendDisabled} onClick={() => void challenge.request('sms')}>
              {t('twoFactor.resendSms')}
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}
