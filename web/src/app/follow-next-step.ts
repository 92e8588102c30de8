import { useCallback } from 'react';
import { type NavigateFunction, useNavigate } from 'react-router';
import { loadAccountPage, loadPasskeyOfferPage, loadTwoFactorPage } from './page-loaders';
import { browserLocation } from '../login/browser-location';
import { browserHasPasskeys, shouldOfferPasskey } from '../login/passkey-device';
import { type PasskeyOffer, storePendingOffer } from '../login/passkey-offer';
import type { NextStep } from '../login/sign-in';

/**
 * Takes the browser where the sign-in says: /login/2fa, the calling platform, /account, or /invalid-redirect. The platform
 * replaces the current history entry: after a completed sign-in, Back must not land on a sign-in page whose state
 * is gone (it would read 'Login redirect failed'). Before the platform, a sign-in with a password on a device that
 * can hold a passkey goes to the passkey offer (/login/passkey), unless the user declined it on this device.
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
      else if (step.kind === 'account')
        void loadAccountPage()
          .catch(() => undefined)
          .then(() => navigate('/account', { replace: true }));
      else if (step.passkeyOffer && browserHasPasskeys())
        void offerPasskeyOrLeave(step.url, step.passkeyOffer, navigate);
      else browserLocation.replace(step.url);
    },
    [navigate],
  );
}

async function offerPasskeyOrLeave(url: string, offer: PasskeyOffer, navigate: NavigateFunction): Promise<void> {
  if (!(await shouldOfferPasskey())) return browserLocation.replace(url);
  storePendingOffer({ ...offer, url });
  await loadPasskeyOfferPage().catch(() => undefined);
  // In place of the sign-in page: Back from the offer leaves the sign-in, as Back from the platform does.
  await navigate('/login/passkey', { replace: true });
}
