import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { asFailure } from '../../api/api-failure';
import type { PasswordLinkKind } from '../../api/passwords';
import { useAnnounce } from '../../app/announcer';
import { useDocumentTitle } from '../../app/use-document-title';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { MessageText } from '../../components/message-text';
import { config } from '../../config/config';
import type { RegionTarget } from '../../config/config';
import type { Message } from '../../i18n/failure-messages';
import type { TranslationKey } from '../../i18n/keys';
import { isAllowedRedirect } from '../../login/redirect-allow-list';
import { type Platform, loginPageOf } from '../../login/platform';
import { readRedirectUrl } from '../../login/sign-in-storage';
import { findTokenRegion } from '../../password/find-token-region';
import {
  type PasswordLink,
  carriesPasswordLink,
  takePasswordLink,
  withoutPasswordLink,
} from '../../password/password-link';
import { passwordFailureMessage } from '../../password/password-messages';
import { NewPasswordForm, type TokenOutcome } from './new-password-form';

type View =
  | { kind: 'checking' }
  | { kind: 'check-failed'; message: Message }
  | { kind: 'form'; target: RegionTarget }
  | { kind: TokenOutcome };

/** Title key of each view, per link kind. */
const TITLES: Record<PasswordLinkKind, Record<View['kind'], TranslationKey>> = {
  set: {
    checking: 'newPassword.checking',
    'check-failed': 'newPassword.checkFailedTitle',
    form: 'newPassword.titleSet',
    done: 'newPassword.doneTitleSet',
    invalid: 'newPassword.invalidTitle',
    expired: 'newPassword.expiredTitle',
    used: 'newPassword.usedTitleSet',
  },
  reset: {
    checking: 'newPassword.checking',
    'check-failed': 'newPassword.checkFailedTitle',
    form: 'newPassword.titleReset',
    done: 'newPassword.doneTitleReset',
    invalid: 'newPassword.invalidTitle',
    expired: 'newPassword.expiredTitle',
    used: 'newPassword.usedTitleReset',
  },
};

/** Explanation key of the views that end the visit (the link cannot be used, or has been). */
const EXPLANATIONS: Record<PasswordLinkKind, Record<TokenOutcome, TranslationKey>> = {
  set: {
    done: 'newPassword.doneSet',
    invalid: 'newPassword.invalidSet',
    expired: 'newPassword.expiredSet',
    used: 'newPassword.usedSet',
  },
  reset: {
    done: 'newPassword.doneReset',
    invalid: 'newPassword.invalidReset',
    expired: 'newPassword.expiredReset',
    used: 'newPassword.usedReset',
  },
};

/**
 * The explanation of a password set or reset beside a button that leads to a login: the button is the way there,
 * so the text does not send her back to the platform as well.
 */
const DONE_WITH_LOGIN: Record<PasswordLinkKind, TranslationKey> = {
  set: 'newPassword.doneSetHere',
  reset: 'newPassword.doneResetHere',
};

const WARNINGS: readonly View['kind'][] = ['check-failed', 'invalid', 'expired', 'used'];

/**
 * /set-password and /reset-password, opened from the invitation or reset email: checks the link's token in each
 * region in turn, then shows the new-password form, or why the link cannot be used.
 */
export function NewPasswordPage({ linkKind }: { linkKind: PasswordLinkKind }) {
  const { t } = useTranslation();
  const announce = useAnnounce();
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [link] = useState(() => takePasswordLink(linkKind, searchParams));
  const [view, setView] = useState<View>(() => (link ? { kind: 'checking' } : { kind: 'invalid' }));
  const title = t(TITLES[linkKind][view.kind]);
  useDocumentTitle(title);

  // The token leaves the address bar and the history as soon as it is read (it is kept for this tab only).
  useEffect(() => {
    if (carriesPasswordLink(searchParams))
      navigate({ pathname, search: withoutPasswordLink(searchParams) }, { replace: true });
  }, [searchParams, pathname, navigate]);

  const check = useCallback(
    async (checked: PasswordLink) => {
      setView({ kind: 'checking' });
      try {
        const lookup = await findTokenRegion(linkKind, checked, config.regions);
        setView(lookup.state === 'valid' ? { kind: 'form', target: lookup.target } : { kind: lookup.state });
      } catch (error) {
        setView({ kind: 'check-failed', message: passwordFailureMessage(asFailure(error)) });
      }
    },
    [linkKind],
  );

  // Once per visit, even when React runs effects twice in development (each check counts against a rate limit).
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !link) return;
    started.current = true;
    void check(link);
  }, [check, link]);

  // When the view changes, announce it and move focus: to the new password field when the form appears, else to
  // the heading, so screen-reader and keyboard users continue where the page now is.
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  // The title also follows the language; only a change of view is announced.
  const titleNow = useRef(title);
  titleNow.current = title;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (view.kind === 'checking') return;
    (view.kind === 'form' ? document.getElementById('new-password') : heading.current)?.focus();
    announce(titleNow.current);
  }, [view.kind, announce]);

  return (
    <section
      className={WARNINGS.includes(view.kind) ? 'card card--warning' : 'card'}
      aria-labelledby="new-password-title"
      aria-busy={view.kind === 'checking' || undefined}
    >
      {view.kind !== 'form' && view.kind !== 'checking' && (
        <Icon
          name={view.kind === 'done' ? 'shield' : 'alert-triangle'}
          size={40}
          className={view.kind === 'done' ? 'icon card__icon card__icon--success' : 'icon card__icon'}
        />
      )}
      <h1 id="new-password-title" ref={heading} tabIndex={-1} className="page-title">
        {title}
      </h1>
      {view.kind === 'check-failed' && link && (
        <>
          <Alert>
            <MessageText message={view.message} />
          </Alert>
          <Button variant="secondary" icon="refresh" onClick={() => void check(link)}>
            {t('newPassword.retry')}
          </Button>
        </>
      )}
      {view.kind === 'form' && link && (
        <NewPasswordForm
          linkKind={linkKind}
          link={link}
          target={view.target}
          onOutcome={(outcome) => setView({ kind: outcome })}
        />
      )}
      {(view.kind === 'done' || view.kind === 'invalid' || view.kind === 'expired' || view.kind === 'used') && (
        <>
          <p>
            {t(
              view.kind === 'done' && doneLogin(link?.platform)
                ? DONE_WITH_LOGIN[linkKind]
                : EXPLANATIONS[linkKind][view.kind],
            )}
          </p>
          <OutcomeAction linkKind={linkKind} outcome={view.kind} platform={link?.platform} />
        </>
      )}
    </section>
  );
}

/**
 * The login a finished password set or reset leads to: the sign-in this tab started, or the login of the platform
 * an invitation names (when this build allows its login page); null when there is none.
 */
function doneLogin(platform?: Platform): { to: string; platform: Platform | null } | null {
  if (isAllowedRedirect(readRedirectUrl(), config.redirectAllowList)) return { to: '/login', platform: null };
  const loginPage = platform ? loginPageOf(platform, config.redirectAllowList) : null;
  if (!platform || !loginPage) return null;
  return { to: `/login?redirectUrl=${encodeURIComponent(loginPage)}`, platform };
}

/** Where the user can go next: a new reset link, the password reset, or the login this tab started. */
function OutcomeAction({
  linkKind,
  outcome,
  platform,
}: {
  linkKind: PasswordLinkKind;
  outcome: TokenOutcome;
  /** The platform an invitation's link names. */
  platform?: Platform;
}) {
  const { t } = useTranslation();
  if (outcome === 'done') {
    // A tab that came through /login returns to the sign-in it started; an invitation leads to the login of the
    // platform she was invited to.
    const login = doneLogin(platform);
    if (!login) return null;
    return (
      <Link className="button button--primary" to={login.to}>
        {login.platform
          ? t('newPassword.toPlatform', { platform: t(`platform.${login.platform}`) })
          : t('newPassword.toLogin')}
      </Link>
    );
  }
  if (linkKind === 'reset') {
    return (
      <Link className="text-link" to="/forgot-password">
        {t('newPassword.newLink')}
      </Link>
    );
  }
  // An invitation is renewed by an administrator; a user whose password is set can still reset it.
  if (outcome !== 'used') return null;
  return (
    <Link className="text-link" to="/forgot-password">
      {t('newPassword.forgotPassword')}
    </Link>
  );
}
