import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { useMovedHere } from '../../app/announcer';
import { useHydrating } from '../../app/hydration';
import { useDocumentTitle } from '../../app/use-document-title';
import { Loading } from '../../components/loading';
import { config } from '../../config/config';
import type { AvailableRegion } from '../../login/probe-regions';
import { acceptRedirect } from '../../login/redirect-gate';
import { forgetWhoSignsIn, readEmail } from '../../login/sign-in-storage';
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

// The region and SSO steps are code most sign-ins never run: they load when needed (or warmed up after the first render).
const RegionStep = lazy(() => import('./region-step'));
const SsoStep = lazy(() => import('./sso-step'));

type Step =
  { kind: 'credentials'; returning: boolean } | { kind: 'region'; regions: AvailableRegion[] } | { kind: 'sso' };

export function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const movedHere = useMovedHere();
  // The build's prerendered screen (web/shell/prerender.ts) knows no query and no storage: while it hydrates, this
  // page renders just that, and the real state right after (the form then takes what was typed meanwhile).
  const hydrating = useHydrating();
  // Decided once, on arrival: the redirect target must be known before anything is typed.
  const [redirectAccepted] = useState(() => acceptRedirect(searchParams, config.redirectAllowList));
  const [step, setStep] = useState<Step>({ kind: 'credentials', returning: false });
  // The email of this sign-in, when the user comes back to log in again (read after acceptRedirect, which may clear it).
  const [credentials, setCredentials] = useState<Credentials>(() => ({
    email: hydrating ? '' : readEmail(),
    password: '',
  }));
  const followNextStep = useFollowNextStep();
  useDocumentTitle(t(step.kind === 'credentials' ? 'login.title' : `${step.kind}.title`));
  useEffect(warmUpSignIn, []);

  if (!redirectAccepted && !hydrating) return <Navigate to="/invalid-redirect" replace />;
  const back = () => setStep({ kind: 'credentials', returning: true });

  return (
    <section className="card">
      {step.kind === 'credentials' ? (
        <LoginForm
          initialValues={credentials}
          returning={step.returning}
          movedHere={movedHere}
          onNextStep={followNextStep}
          onSeveralRegions={(regions, entered) => {
            setCredentials(entered);
            setStep({ kind: 'region', regions });
          }}
          onSso={(entered) => {
            setCredentials(entered);
            setStep({ kind: 'sso' });
          }}
        />
      ) : (
        <Suspense fallback={<Loading />}>
          {step.kind === 'sso' ? (
            <SsoStep
              initialEmail={credentials.email}
              onBack={back}
              onSomeoneElse={() => {
                forgetWhoSignsIn();
                setCredentials({ email: '', password: '' });
                setStep({ kind: 'credentials', returning: false });
              }}
            />
          ) : (
            <RegionStep regions={step.regions} credentials={credentials} onBack={back} onNextStep={followNextStep} />
          )}
        </Suspense>
      )}
    </section>
  );
}
