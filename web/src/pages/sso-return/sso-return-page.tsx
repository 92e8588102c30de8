import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAnnounce } from '../../app/announcer';
import { useDocumentTitle } from '../../app/use-document-title';
import { Alert } from '../../components/alert';
import { Icon } from '../../components/icon';
import { MessageText } from '../../components/message-text';
import { config } from '../../config/config';
import type { Message } from '../../i18n/failure-messages';
import { ssoFailureMessage } from '../../i18n/sso-messages';
import { finishSso } from '../../login/sso-flow';
import { useFollowNextStep } from '../../app/follow-next-step';

/**
 * /login/sso: where the identity provider sends the browser back. The answer is checked against this tab's
 * attempt and sent to the region; then the sign-in continues like a password sign-in (2FA or the platform).
 */
export function SsoReturnPage() {
  const { t } = useTranslation();
  const announce = useAnnounce();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const followNextStep = useFollowNextStep();
  const [failure, setFailure] = useState<Message | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const started = useRef(false);
  useDocumentTitle(t(failure ? 'sso.failedTitle' : 'sso.returnTitle'));

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development: the answer can be used only once.
    if (started.current) return;
    started.current = true;
    const answer = new URLSearchParams(searchParams);
    // The one-time code leaves the address bar and the history at once.
    navigate('/login/sso', { replace: true });
    finishSso(answer, config.redirectAllowList).then(followNextStep, (error: unknown) =>
      setFailure(ssoFailureMessage(error, 'finish')),
    );
  }, [searchParams, navigate, followNextStep]);

  useEffect(() => {
    if (!failure) return;
    heading.current?.focus();
    announce(t('sso.failedTitle'));
  }, [failure, announce, t]);

  if (!failure) {
    return (
      <section className="card" aria-labelledby="sso-return-title">
        <h1 id="sso-return-title" className="page-title">
          {t('sso.returnTitle')}
        </h1>
        <p className="loading" role="status">
          {t('sso.returnStatus')}
        </p>
      </section>
    );
  }
  return (
    <section className="card card--warning" aria-labelledby="sso-return-title">
      <Icon name="alert-triangle" size={40} className="icon card__icon" />
      <h1 id="sso-return-title" ref={heading} tabIndex={-1} className="page-title">
        {t('sso.failedTitle')}
      </h1>
      <Alert>
        <MessageText message={failure} />
      </Alert>
      <Link className="button button--primary" to="/login">
        {t('sso.startAgain')}
      </Link>
    </section>
  );
}
