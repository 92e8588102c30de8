import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ActiveSession, endOtherSessions, endSession, listSessions } from '../../api/account';
import { useAnnounce } from '../../app/announcer';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { MessageText } from '../../components/message-text';
import type { Message } from '../../i18n/failure-messages';
import type { TranslationKey } from '../../i18n/keys';
import { useAccount } from './account-context';
import { accountFailureMessage } from './account-messages';
import { formatMoment } from './format';

const METHOD_KEYS: Record<ActiveSession['signedInWith'][number], TranslationKey | null> = {
  password: 'account.sessions.method.password',
  passkey: 'account.sessions.method.passkey',
  oidc: 'account.sessions.method.sso',
  saml: 'account.sessions.method.sso',
  skolon: 'account.sessions.method.sso',
  coalert: 'account.sessions.method.code',
  // A one-time code is a second step after the first factor, which names the way in.
  otpEmail: null,
  otpSms: null,
};

/** "Firefox on Windows", the one of them known, or "Unknown device". */
function useDeviceName(): (session: ActiveSession) => string {
  const { t } = useTranslation();
  return ({ device: { browser, os } }) =>
    browser && os
      ? t('account.sessions.deviceOn', { browser, os })
      : (browser ?? os ?? t('account.sessions.unknownDevice'));
}

/** Where she is logged in: end one session (a lost phone), or all but this one. */
export function SessionsSection() {
  const { t, i18n } = useTranslation();
  const announce = useAnnounce();
  const deviceName = useDeviceName();
  const { client, run, revision, changed } = useAccount();
  const [sessions, setSessions] = useState<ActiveSession[] | null>(null);
  const [alert, setAlert] = useState<Message | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setSessions(await run((ref) => listSessions(client, ref)));
    } catch (error) {
      setAlert(accountFailureMessage(error));
    }
  }, [client, run]);
  useEffect(() => void load(), [load, revision]);

  const act = async (id: string, action: () => Promise<string>) => {
    setAlert(null);
    setBusy(id);
    try {
      announce(await action());
    } catch (error) {
      setAlert(accountFailureMessage(error));
    } finally {
      setBusy(null);
      changed();
    }
  };

  const end = (session: ActiveSession) =>
    act(session.id, async () => {
      await run((ref) => endSession(client, ref, session.id));
      document.getElementById('sessions-title')?.focus();
      return t('account.sessions.ended', { device: deviceName(session) });
    });

  const endOthers = () =>
    act('others', async () => {
      await run((ref) => endOtherSessions(client, ref));
      return t('account.sessions.othersEnded');
    });

  const method = (session: ActiveSession) => {
    const key = session.signedInWith.map((factor) => METHOD_KEYS[factor]).find((found) => found !== null);
    return t(key ?? 'account.sessions.method.other');
  };
  const others = sessions?.filter((session) => !session.current) ?? [];

  return (
    <section className="account-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="section-title" tabIndex={-1}>
        {t('account.sessions.title')}
      </h2>
      <p className="muted">{t('account.sessions.description')}</p>
      {alert && (
        <Alert focus>
          <MessageText message={alert} />
        </Alert>
      )}
      {sessions && (
        <ul className="account-list">
          {sessions.map((session) => (
            <li key={session.id} className="account-item">
              <h3 className="account-item__title">
                {deviceName(session)}
                {session.current && ' '}
                {session.current && <span className="account-item__badge">{t('account.sessions.current')}</span>}
              </h3>
              <p className="muted">
                {`${t('account.sessions.started', { when: formatMoment(session.createdAt, i18n.language) })} ${method(session)}`}
                {' · '}
                {t('account.sessions.lastUsed', { when: formatMoment(session.lastUsedAt, i18n.language) })}
              </p>
              {session.network && <p className="muted">{t('account.sessions.place', { place: session.network })}</p>}
              {!session.current && (
                <div className="account-actions">
                  <Button
                    variant="secondary"
                    busy={busy === session.id}
                    disabled={busy !== null}
                    aria-label={t('account.sessions.endLabel', { device: deviceName(session) })}
                    onClick={() => void end(session)}
                  >
                    {t('account.sessions.end')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions &&
        (others.length > 0 ? (
          <Button
            id="sessions-end-others"
            variant="primary"
            busy={busy === 'others'}
            disabled={busy !== null}
            onClick={() => void endOthers()}
          >
            {t('account.sessions.endOthers')}
          </Button>
        ) : (
          <p>{t('account.sessions.onlyHere')}</p>
        ))}
    </section>
  );
}
