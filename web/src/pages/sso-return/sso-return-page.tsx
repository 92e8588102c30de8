import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../app/use-document-title';
import { Alert } from '../../components/alert';
import { Icon } from '../../components/icon';
import { config } from '../../config/config';
import type { Message } from '../../i18n/failure-messages';
import { ssoFailureMessage } from '../../i18n/sso-messages';
import { useMessage } from '../../i18n/use-message';
import { finishSso } from '../../login/sso-flow';
import { useFollowNextStep } from '../login/follow-next-step';

/**
 * /login/sso: where the identity provider sends the browser back. The answer is checked against this tab's
 * attempt and sent to the region; then the sign-in continues like a password sign-in (2FA or the platform).
 */
export function SsoReturnPage() {
  const { t } = useTranslation();
  const translate = useMessage();
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
    finishSso(answer, config.redirectAllowList).then(followNextStep, (error: unknown) => setFailure(ssoFailureMessage(error, 'finish')));
  }, [searchParams, navigate, followNextStep]);

  useEffect(() => {
    if (failure) heading.current?.focus();
  }, [failure]);

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
      <Alert>{translate(failure)}</Alert>
      <Link className="button button--primary" to="/login">
        {t('sso.startAgain')}
      </Link>
    </section>
  );
}
