import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, asFailure } from '../../api/api-failure';
import { reauthenticate } from '../../api/account';
import { useAnnounce } from '../../app/announcer';
import { useFormAlert } from '../../app/use-form-alert';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { MessageText } from '../../components/message-text';
import { PasswordInput } from '../../components/password-input';
import { BUSY, type Message, rateLimitedMessage } from '../../i18n/failure-messages';
import { PasskeyFailure } from '../../login/passkey-failure';
import { ProofCancelled, type ProofRequest, useAccount } from './account-context';

/** What the prompt says when a proof failed (null: the app stopped the passkey dialog itself). */
export function proofFailureMessage(error: unknown): Message | null {
  if (error instanceof PasskeyFailure) {
    if (error.problem === 'aborted') return null;
    if (error.problem === 'unsupported') return { key: 'account.reauth.passkeyUnsupported' };
    return { key: 'account.reauth.passkeyNotUsed' };
  }
  const failure = error instanceof ApiFailure ? error : asFailure(error);
  if (failure.shed) return BUSY;
  if (failure.code === 'INVALID_CREDENTIALS') return { key: 'account.reauth.notAccepted' };
  if (failure.code === 'TOO_MANY_REQUESTS') return rateLimitedMessage(failure);
  return { key: 'errors.generic' };
}

/**
 * "Confirm it's you": the change the user asked for needs a recent proof of her credentials (the server answered
 * 401 REAUTHENTICATION_REQUIRED). Her password or a passkey, then the change is made; Cancel leaves it unmade.
 * The focus moves to the prompt's heading when it appears and back to the pressed button when it closes.
 */
export function ReauthPrompt({ proofRequest }: { proofRequest: ProofRequest }) {
  const { t } = useTranslation();
  const announce = useAnnounce();
  const { client, run } = useAccount();
  const { alert, setAlert, waiting } = useFormAlert('reauth-submit');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState<'password' | 'passkey' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The button whose change waits for the proof gets the focus back when the prompt closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const proven = () => {
    announce(t('account.reauth.proven'));
    proofRequest.settle();
  };

  const withPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || waiting) return;
    if (!password) return setMissing(true);
    setAlert(null);
    setBusy('password');
    try {
      await run((session) => reauthenticate(client, session, { password }));
      proven();
    } catch (error) {
      setAlert(proofFailureMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const withPasskey = async () => {
    if (busy || waiting) return;
    setAlert(null);
    setBusy('passkey');
    try {
      const { reauthenticateWithPasskey } = await import('./passkey-ceremonies');
      await run((session) => reauthenticateWithPasskey(client, session));
      proven();
    } catch (error) {
      setAlert(proofFailureMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="account-reauth" role="dialog" aria-labelledby="reauth-title" aria-describedby="reauth-text">
      <form className="stack" noValidate onSubmit={(event) => void withPassword(event)}>
        <h2 id="reauth-title" className="section-title" tabIndex={-1} ref={heading}>
          {t('account.reauth.title')}
        </h2>
        <p id="reauth-text">{t('account.reauth.description')}</p>
        {alert && (
          <Alert focus>
            <MessageText message={alert} />
          </Alert>
        )}
        <PasswordInput
          id="reauth-password"
          name="password"
          autoComplete="current-password"
          label={t('account.reauth.passwordLabel')}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setMissing(false);
          }}
          error={missing ? t('validation.passwordRequired') : undefined}
        />
        <Button id="reauth-submit" type="submit" variant="primary" busy={busy === 'password'} disabled={waiting}>
          {t('account.reauth.confirm')}
        </Button>
        <Button
          variant="secondary"
          icon="key"
          busy={busy === 'passkey'}
          disabled={waiting}
          onClick={() => void withPasskey()}
        >
          {t('account.reauth.usePasskey')}
        </Button>
        <Button variant="tertiary" disabled={busy !== null} onClick={() => proofRequest.settle(new ProofCancelled())}>
          {t('account.reauth.cancel')}
        </Button>
      </form>
    </section>
  );
}
