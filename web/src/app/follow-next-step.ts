import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { loadTwoFactorPage } from './page-loaders';
import { browserLocation } from '../login/browser-location';
import type { NextStep } from '../login/sign-in';

/**
 * Takes the browser where the sign-in says: /login/2fa, the calling platform, or /invalid-redirect. The platform
 * replaces the current history entry: after a completed sign-in, Back must not land on a sign-in page whose state
 * is gone (it would read 'Login redirect failed').
 */
export function useFollowNextStep(): (step: NextStep) => void {
  const navigate = useNavigate();
  return useCallback(
    (step: NextStep) => {
      // The code page is loaded first, so the address and the screen change together (a page that fails to load
      // still gets the navigation, and its error page).
      if (step.kind === 'two-factor')
        void loadTwoFactorPage()
          .catch(() => undefined)
          .then(() => navigate('/login/2fa'));
      else if (step.kind === 'invalid-redirect') navigate('/invalid-redirect', { replace: true });
      else browserLocation.replace(step.url);
    },
    [navigate],
  );
}
