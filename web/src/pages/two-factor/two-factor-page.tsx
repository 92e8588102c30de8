import { useFormik } from 'formik';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { asFailure } from '../../api/api-failure';
import { clientFor } from '../../api/client';
import { verifyOtp } from '../../api/otp-challenge';
import { toClientTime } from '../../api/server-clock';
import { useFormBehaviour } from '../../app/form-behaviour';
import { byId, useMovedHere, useStepEntry } from '../../app/announcer';
import { schemaErrors } from '../../app/schema-validation';
import { useDocumentTitle } from '../../app/use-document-title';
import { useFocusFirstError } from '../../app/use-focus-first-error';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Countdown, useCountdown } from '../../components/countdown';
import { MessageText } from '../../components/message-text';
import { TextInput } from '../../components/text-input';
import { config } from '../../config/config';
import {
  type Message,
  hasSessionEnded,
  secondFactorLocked,
  twoFactorFailureMessage,
} from '../../i18n/failure-messages';
import { useMessage } from '../../i18n/use-message';
import { isSmsUnverified } from '../../login/factors';
import { CODE_LENGTH, codeFromText } from '../../login/one-time-code';
import { completeSignIn } from '../../login/sign-in';
import {
  FINISHED_KEY,
  type PendingSession,
  forgetPendingSession,
  isSignInFinished,
  readPendingSession,
} from '../../login/sign-in-storage';
import { clearLaterStep, forgetWhoSignsIn, markLaterStep } from '../../login/sign-in-steps';
import { useFollowNextStep } from '../../app/follow-next-step';
import { codeSchema } from './code-schema';
import { MAX_WRONG_TRIES, useOtpChallenge } from './use-otp-challenge';
import { offersPasskeyFirst, usePasskeyFactor } from './use-passkey-factor';

export function TwoFactorPage() {
  const [pending] = useState(readPendingSession);
  if (!pending) return <Navigate to="/login" replace />;
  return <TwoFactor pending={pending} />;
}

/**
 * Whether another tab of this browser finished this sign-in (a duplicated tab holds the same pending session): its
 * code can no longer be used here, and the user is told where it went rather than that it expired.
 */
function useFinishedElsewhere(sessionId: string): boolean {
  const [finished, setFinished] = useState(() => isSignInFinished(sessionId));
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === FINISHED_KEY && isSignInFinished(sessionId)) setFinished(true);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [sessionId]);
  return finished;
}

function TwoFactor({ pending }: { pending: PendingSession }) {
  const { t, i18n } = useTranslation();
  const translate = useMessage();
  const navigate = useNavigate();
  const followNextStep = useFollowNextStep();
  // A user with a passkey this device can use is offered it first; the code is sent when she asks for one.
  const [passkeyFirst] = useState(() => offersPasskeyFirst(pending));
  const challenge = useOtpChallenge(pending, passkeyFirst);
  const [verifyProblem, setVerifyProblem] = useState<Message | null>(null);
  const [verifyBlockedUntil, setVerifyBlockedUntil] = useState<number | null>(null);
  // Locked until a password reset (30 wrong codes): the way on is the reset, not a wait.
  const [locked, setLocked] = useState(false);
  const [expiredCode, setExpiredCode] = useState<number | null>(null);
  const [verifyEnded, setVerifyEnded] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const passkey = usePasskeyFactor(
    pending,
    () => setVerifyEnded(true),
    () => void (challenge.sent || challenge.request('email', false)),
  );
  // Nothing sent yet, and the passkey on offer: the page asks her to choose.
  const choosing =
    passkeyFirst && passkey.available && !challenge.sent && !challenge.requesting && !challenge.sentRecently;
  const title = challenge.channel === 'email' ? t('twoFactor.titleEmail') : t('twoFactor.titleSms');
  useDocumentTitle(title);

  // Back from here meets the login form again as a return (its heading focused and announced).
  useEffect(markLaterStep, []);
  const finishedElsewhere = useFinishedElsewhere(pending.session.id);
  const sessionLeft = useCountdown(pending.expiresAt ?? null);
  const sessionEnded =
    finishedElsewhere ||
    challenge.sessionEnded ||
    verifyEnded ||
    (pending.expiresAt !== undefined && sessionLeft === 0);
  const verifyWait = useCountdown(verifyBlockedUntil);
  const codeKey = challenge.sent?.validUntil ?? 0;
  const usedUp = (challenge.sent?.wrongTries ?? 0) >= MAX_WRONG_TRIES;
  const codeExpired = expiredCode === codeKey;
  // A code that can no longer be verified: the user needs a new one (or to log in again), not another try.
  const codeDead = usedUp || codeExpired;

  const form = useFormBehaviour(
    useFormik({
      initialValues: { code: '' },
      validate: (values) => schemaErrors(codeSchema, values),
      onSubmit: async ({ code }) => {
        if (codeDead || verifyWait > 0) return;
        setVerifyProblem(null);
        try {
          const session = await verifyOtp(clientFor(pending.baseUrl), pending.session, challenge.channel, code);
          const step = completeSignIn(session, config.redirectAllowList, {
            region: pending.region,
            baseUrl: pending.baseUrl,
          });
          setLeaving(step.kind === 'redirect');
          followNextStep(step);
        } catch (error) {
          const failure = asFailure(error);
          if (hasSessionEnded(failure)) return setVerifyEnded(true);
          if (failure.code === 'MFA_TOKEN_EXPIRED') return setExpiredCode(codeKey);
          if (failure.code === 'INVALID_CREDENTIALS' && challenge.countWrongTry() >= MAX_WRONG_TRIES) return;
          if (failure.code === 'TOO_MANY_REQUESTS') {
            setVerifyBlockedUntil(toClientTime(failure.unavailableUntil, failure.clockOffsetMs));
            setLocked(secondFactorLocked(failure));
          }
          setVerifyProblem(twoFactorFailureMessage(failure));
        }
      },
    }),
  );
  const code = form.values.code;
  useEffect(() => setVerifyProblem(null), [code]);
  // A code being typed (after a wrong one, say) is judged when the field is left or the code submitted, not from its
  // first digit: "must be 6 digits" in red, and read out, while the user is still typing would only interrupt her.
  const [typing, setTyping] = useState(false);
  const typed = (text: string) => {
    setTyping(true);
    form.setFieldValue('code', codeFromText(text));
  };
  const submit = (event?: FormEvent) => {
    setTyping(false);
    return form.handleSubmit(event);
  };

  // The sixth digit submits (typed, pasted or filled in by the phone), once for each code.
  const submitted = useRef('');
  useEffect(() => {
    if (code.length !== CODE_LENGTH || code === submitted.current) return;
    submitted.current = code;
    setTyping(false);
    void form.handleSubmit();
  }, [code, form]);

  const schemaError = typing ? undefined : form.shownError('code');
  const deadKey = usedUp ? 'twoFactor.codeUsedUp' : codeExpired ? 'twoFactor.codeExpired' : null;
  const error = schemaError ? t(schemaError) : deadKey ? t(deadKey) : translate(verifyProblem);
  useFocusFirstError(form.submitCount, form.isSubmitting, error ? ['code'] : []);
  useStepEntry(
    title,
    byId(sessionEnded ? 'two-factor-ended' : passkeyFirst ? 'two-factor-title' : 'code'),
    useMovedHere(),
  );

  const resendLeft = useCountdown(challenge.resendAt);
  const resendUnavailable = challenge.requesting || resendLeft > 0;
  const proveWithPasskey = async () => {
    const step = await passkey.prove();
    if (!step) return;
    setLeaving(step.kind === 'redirect');
    followNextStep(step);
  };
  const logInAgain = () => {
    forgetPendingSession();
    // A new start, not a return: the login form focuses the password of the kept email.
    clearLaterStep();
    navigate('/login', { replace: true });
  };
  const someoneElse = () => {
    forgetWhoSignsIn();
    navigate('/login', { replace: true });
  };

  return (
    <section className="card">
      <form className="stack" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="two-factor-title">
        <h1 id="two-factor-title" className="page-title" tabIndex={-1}>
          {title}
        </h1>
        {sessionEnded ? (
          <>
            <Alert id="two-factor-ended" tone="warning" focus>
              {t(finishedElsewhere ? 'twoFactor.finishedElsewhere' : 'twoFactor.sessionEnded')}
            </Alert>
            <Button variant="primary" icon="log-in" onClick={logInAgain}>
              {t('twoFactor.logInAgain')}
            </Button>
          </>
        ) : (
          <>
            {challenge.limitUntil !== null && (
              <p>{t('twoFactor.codeLimitReached', { time: clockTime(challenge.limitUntil, i18n.language) })}</p>
            )}
            <p>
              {challenge.sent
                ? t('twoFactor.sentTo', { destination: challenge.sent.sentTo })
                : challenge.sentRecently && challenge.limitUntil === null
                  ? t('twoFactor.sentRecently')
                  : challenge.requesting
                    ? t('twoFactor.sending')
                    : choosing && t('twoFactor.passkeyFirst')}
            </p>
            {challenge.alert && <Alert>{translate(challenge.alert)}</Alert>}
            {passkey.problem && (
              <Alert focus>
                <MessageText message={passkey.problem} />
              </Alert>
            )}
            {choosing && (
              <Button
                id="passkey-second-factor"
                variant="primary"
                icon="key"
                busy={passkey.busy || leaving}
                onClick={() => void proveWithPasskey()}
              >
                {t('passkey.useFirst')}
              </Button>
            )}
            <TextInput
              id="code"
              name="code"
              label={t('twoFactor.codeLabel')}
              message={t('twoFactor.codeHint')}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              className="field__input--code"
              value={code}
              onChange={(event) => typed(event.target.value)}
              onPaste={(event) => {
                event.preventDefault();
                typed(event.clipboardData.getData('text'));
              }}
              onBlur={(event) => {
                setTyping(false);
                form.handleBlur(event);
              }}
              error={error}
            />
            <Button
              type="submit"
              variant="primary"
              busy={form.isSubmitting || leaving}
              disabled={codeDead || verifyWait > 0}
            >
              {t('twoFactor.verify')}
            </Button>
            <Countdown seconds={locked ? resendLeft : Math.max(resendLeft, verifyWait)} />
            {locked && (
              <Link className="text-link" to="/forgot-password">
                {t('twoFactor.resetPassword')}
              </Link>
            )}
            {passkey.available && !choosing && (
              <Button
                id="passkey-second-factor"
                variant="secondary"
                icon="key"
                busy={passkey.busy || leaving}
                onClick={() => void proveWithPasskey()}
              >
                {t('passkey.useInstead')}
              </Button>
            )}
            <div className="button-row">
              <Button
                variant="tertiary"
                icon="mail"
                disabled={resendUnavailable}
                onClick={() => void challenge.request('email', !choosing)}
              >
                {t(choosing ? 'twoFactor.sendEmail' : 'twoFactor.resendEmail')}
              </Button>
              {isSmsUnverified(pending.session.factors) && (
                <Button
                  variant="tertiary"
                  icon="phone"
                  disabled={resendUnavailable}
                  onClick={() => void challenge.request('sms', true)}
                >
                  {t('twoFactor.resendSms')}
                </Button>
              )}
              {codeDead && (
                <Button variant="tertiary" icon="log-in" onClick={logInAgain}>
                  {t('twoFactor.logInAgain')}
                </Button>
              )}
            </div>
            {/* Not who should sign in here (a shared phone, the wrong account): back to an empty login form. */}
            <Button variant="tertiary" icon="log-in" onClick={someoneElse}>
              {t('login.someoneElse')}
            </Button>
          </>
        )}
      </form>
    </section>
  );
}

/**
 * The time of day of a client instant, as the user's language writes it where she is: the page's language with the
 * browser's own region when the browser names one for it (en-GB 14:05, en-US 2:05 PM).
 */
export function clockTime(at: number, language: string, preferred: readonly string[] = navigator.languages): string {
  const local = preferred.find((tag) => tag.toLowerCase().split('-')[0] === language.toLowerCase().split('-')[0]);
  return new Intl.DateTimeFormat(local ?? language, { hour: 'numeric', minute: '2-digit' }).format(new Date(at));
}
