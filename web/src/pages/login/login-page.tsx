import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useMovedHere } from '../../app/announcer';
import { useHydrating } from '../../app/hydration';
import { useDocumentTitle } from '../../app/use-document-title';
import { config } from '../../config/config';
import { acceptRedirect } from '../../login/redirect-gate';
import { readEmail, storeEmail } from '../../login/sign-in-storage';
import {
  cameBackFromLaterStep,
  clearLaterStep,
  holdPassword,
  readHeldPassword,
  storeStepRegions,
} from '../../login/sign-in-steps';
import { useFollowNextStep } from '../../app/follow-next-step';
import { type Credentials, LoginForm } from './login-form';

/** Fetches the validation and network code while the user types, so the first blur or submit need not wait. */
function warmUpSignIn() {
  const warm = () =>
    void Promise.all([
      import('./login-schema'),
      import('../../login/sign-in-flow'),
      import('./region-step'),
      import('./sso-step'),
    ]).catch(() => undefined);
  const handle = setTimeout(warm, 0);
  return () => clearTimeout(handle);
}

/**
 * /login: the first step of a sign-in. The steps after it have addresses of their own (/login/region,
 * /login/sso/email; app-routes.tsx), so Back, Forward and a reload behave on each (login/sign-in-steps.ts).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const movedHere = useMovedHere();
  // The build's prerendered screen (web/shell/prerender.ts) knows no query and no storage: while it hydrates, this
  // page renders just that, and the real state right after (the form then takes what was typed meanwhile).
  const hydrating = useHydrating();
  // Decided once, on arrival: the redirect target must be known before anything is typed.
  const [redirectAccepted] = useState(() => acceptRedirect(searchParams, config.redirectAllowList));
  // Met again from a later step (Back): its heading is focused and announced.
  const [returning] = useState(() => !hydrating && cameBackFromLaterStep());
  useEffect(clearLaterStep, []);
  // The email of this sign-in, when the user comes back to log in again (read after acceptRedirect, which may clear
  // it), and the password typed before a later step, while this page lives (it is never stored).
  const [credentials] = useState<Credentials>(() => ({
    email: hydrating ? '' : readEmail(),
    password: hydrating ? '' : readHeldPassword(),
  }));
  const followNextStep = useFollowNextStep();
  useDocumentTitle(t('login.title'));
  useEffect(warmUpSignIn, []);

  if (!redirectAccepted && !hydrating) return <Navigate to="/invalid-redirect" replace />;

  return (
    <section className="card">
      <LoginForm
        initialValues={credentials}
        returning={returning}
        movedHere={movedHere}
        onNextStep={followNextStep}
        onSeveralRegions={(regions, entered) => {
          storeStepRegions(regions);
          holdPassword(entered.password);
          void navigate('/login/region');
        }}
        onSso={(entered) => {
          storeEmail(entered.email.trim());
          holdPassword(entered.password);
          void navigate('/login/sso/email');
        }}
      />
    </section>
  );
}
