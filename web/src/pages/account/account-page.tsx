import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { byId, useMovedHere, useStepEntry } from '../../app/announcer';
import { useHydrating } from '../../app/hydration';
import { useDocumentTitle } from '../../app/use-document-title';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { Loading } from '../../components/loading';
import { config } from '../../config/config';
import { browserLocation } from '../../login/browser-location';
import { buildRedirectUrl } from '../../login/redirect-url';
import { AccountProvider, useAccount } from './account-context';
import { type AccountSession, forgetAccountSession, takeAccountSession } from '../../login/account-session';
import { EventsSection } from './events-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { ReauthPrompt } from './reauth-prompt';
import { SessionsSection } from './sessions-section';
import './account.css';

/**
 * /account: the signed-in user's own security page (her sessions, passkeys, password and recent events), for the
 * session a platform handed over or a sign-in with `?next=account` left here (account-session.ts).
 */
export function AccountPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrating = useHydrating();
  const [session] = useState<AccountSession | null>(() =>
    takeAccountSession(location, config.regions, config.redirectAllowList),
  );
  // The handed-over tokens leave the address (and the history) at once.
  const { hash, pathname, search } = location;
  useEffect(() => {
    if (hash) void navigate({ pathname, search }, { replace: true });
  }, [hash, pathname, search, navigate]);
  // The build's prerendered shell knows no session (web/shell/prerender.ts): while it renders and while the browser
  // hydrates it, the page is the loading line; the real state comes right after.
  if (hydrating) return <Loading />;
  if (!session) return <NoSession reason="missing" />;
  return (
    <AccountProvider initial={session}>
      <Account />
    </AccountProvider>
  );
}

function NoSession({ reason }: { reason: 'missing' | 'ended' }) {
  const { t } = useTranslation();
  const title = t(reason === 'missing' ? 'account.missing.title' : 'account.ended.title');
  useDocumentTitle(title);
  useStepEntry(title, byId('account-title'), useMovedHere());
  return (
    <section className="card card--warning" aria-labelledby="account-title">
      <Icon name="alert-triangle" size={40} className="icon card__icon" />
      <h1 id="account-title" className="page-title" tabIndex={-1}>
        {title}
      </h1>
      <p>{t(reason === 'missing' ? 'account.missing.description' : 'account.ended.description')}</p>
    </section>
  );
}

function Account() {
  const { t } = useTranslation();
  const { session, proofRequest, ended } = useAccount();
  useDocumentTitle(t('account.title'));
  useStepEntry(t('account.title'), byId('account-title'), useMovedHere());
  if (ended) return <NoSession reason="ended" />;

  const goOn = () => {
    const url = buildRedirectUrl(
      session.returnUrl ?? null,
      { refreshToken: session.refreshToken ?? '', sessionId: session.sessionId, region: session.region },
      config.redirectAllowList,
    );
    forgetAccountSession();
    if (url) browserLocation.replace(url);
  };

  return (
    <section className="card account" aria-labelledby="account-title">
      <h1 id="account-title" className="page-title" tabIndex={-1}>
        {t('account.title')}
      </h1>
      <p className="page-subtitle">{t('account.description')}</p>
      {proofRequest && <ReauthPrompt proofRequest={proofRequest} />}
      <div className="stack" hidden={proofRequest !== null}>
        <SessionsSection />
        <PasskeysSection />
        <PasswordSection />
        <EventsSection />
        {session.returnUrl && session.refreshToken && (
          <Button variant="primary" onClick={goOn}>
            {t('account.continue')}
          </Button>
        )}
      </div>
    </section>
  );
}
