import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../app/use-document-title';
import { Loading } from '../../components/loading';
import { config } from '../../config/config';
import type { AvailableRegion } from '../../login/probe-regions';
import { acceptRedirect } from '../../login/redirect-gate';
import { useFollowNextStep } from './follow-next-step';
import { type Credentials, LoginForm } from './login-form';
import { RegionStep } from './region-step';

/** Fetches the validation and network code while the user types, so the first blur or submit need not wait. */
function warmUpSignIn() {
  const warm = () => void Promise.all([import('./login-schema'), import('../../login/sign-in-flow'), import('./sso-step')]).catch(() => undefined);
  const handle = setTimeout(warm, 0);
  return () => clearTimeout(handle);
}

// Single sign-on is code most sign-ins never run: it loads when asked for (or warmed up after the first render).
const SsoStep = lazy(() => import('./sso-step'));

type Step = { kind: 'credentials' } | { kind: 'region'; regions: AvailableRegion[] } | { kind: 'sso' };

export function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  // Decided once, on arrival: the redirect target must be known before anything is typed.
  const [redirectAccepted] = useState(() => acceptRedirect(searchParams, config.redirectAllowList));
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const [credentials, setCredentials] = useState<Credentials>({ email: '', password: '' });
  const followNextStep = useFollowNextStep();
  useDocumentTitle(t(step.kind === 'credentials' ? 'login.title' : `${step.kind}.title`));
  useEffect(warmUpSignIn, []);

  if (!redirectAccepted) return <Navigate to="/invalid-redirect" replace />;

  return (
    <section className="card">
      {step.kind === 'credentials' ? (
        <LoginForm
          initialValues={credentials}
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
      ) : step.kind === 'sso' ? (
        <Suspense fallback={<Loading />}>
          <SsoStep initialEmail={credentials.email} onBack={() => setStep({ kind: 'credentials' })} />
        </Suspense>
      ) : (
        <RegionStep
          regions={step.regions}
          credentials={credentials}
          onBack={() => setStep({ kind: 'credentials' })}
          onNextStep={followNextStep}
        />
      )}
    </section>
  );
}
