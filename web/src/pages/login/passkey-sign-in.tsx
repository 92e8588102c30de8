import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { config } from '../../config/config';
import type { Message } from '../../i18n/failure-messages';
import { autofillAvailable, browserHasPasskeys } from '../../login/passkey-device';
import type { NextStep } from '../../login/sign-in';
import { readClientType } from '../../login/sign-in-storage';

/**
 * The regions' challenges live five minutes: the autofill asks for new ones a little before, so a passkey picked
 * from the autofill after a long pause still signs a live challenge.
 */
export const AUTOFILL_REFRESH_MS = 4 * 60_000;
/** Autofill ceremonies that fail one after another before the field stops offering passkeys (until the button is used). */
const AUTOFILL_MAX_FAILURES = 3;

/** The ceremonies and their messages, with @simplewebauthn/browser: loaded when the first ceremony starts. */
const loadFlow = () =>
  Promise.all([import('../../login/passkey-flow'), import('../../i18n/passkey-messages')]).then(([flow, messages]) => ({
    ...flow,
    ...messages,
  }));

interface PasskeySignInProps {
  onNextStep: (step: NextStep) => void;
  /** Shows a message above the login form (null: clears it). */
  onAlert: (message: Message | null) => void;
  /** The form is waiting out a rate limit: the button is unavailable meanwhile. */
  disabled: boolean;
}

/**
 * "Log in with a passkey", and the same passkeys offered in the email field's autofill (conditional mediation)
 * where the browser can. Both ask every region for a challenge and sign in at the region the passkey names
 * (login/passkey-flow.ts, loaded with @simplewebauthn/browser only when a ceremony starts). Shown only once the
 * page runs in a browser with WebAuthn, so the page as first rendered is the same everywhere.
 */
export function PasskeySignIn({ onNextStep, onAlert, disabled }: PasskeySignInProps) {
  const { t } = useTranslation();
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [leaving, setLeaving] = useState(false);
  /** Each ceremony this component starts takes a new number; a ceremony whose number is not the latest is over. */
  const generation = useRef(0);
  const flow = useRef<Awaited<ReturnType<typeof loadFlow>> | null>(null);
  const latest = useRef({ onNextStep, onAlert });
  latest.current = { onNextStep, onAlert };

  const proceed = useCallback((step: NextStep) => {
    setLeaving(step.kind === 'redirect');
    latest.current.onNextStep(step);
  }, []);

  const runAutofill = useCallback(async () => {
    const mine = ++generation.current;
    const current = () => generation.current === mine;
    if (!(await autofillAvailable()) || !current()) return;
    const loaded = (flow.current ??= await loadFlow());
    let failures = 0;
    while (current() && failures < AUTOFILL_MAX_FAILURES) {
      let joined;
      try {
        joined = await loaded.joinedAuthenticationOptions(config.regions, readClientType());
      } catch {
        return; // No region gave a challenge: the field simply offers no passkeys (the button says why, if used).
      }
      if (!current()) return;
      const refresh = setTimeout(() => current() && loaded.cancelPasskeyCeremony(), AUTOFILL_REFRESH_MS);
      try {
        const step = await loaded.signInWithJoinedOptions(joined, config.redirectAllowList, true);
        if (!current()) return;
        generation.current++;
        return proceed(step);
      } catch (error) {
        if (!current()) return;
        // Stopped by the refresh: the loop starts again with new challenges.
        if (loaded.wasAborted(error)) continue;
        failures++;
        const message = loaded.autofillFailureMessage(error);
        if (message) latest.current.onAlert(message);
      } finally {
        clearTimeout(refresh);
      }
    }
  }, [proceed]);

  /** Ends whatever ceremony this component has under way (the page moves on). */
  const stopCeremonies = useCallback(() => {
    generation.current++;
    flow.current?.cancelPasskeyCeremony();
  }, []);

  useEffect(() => {
    if (!browserHasPasskeys()) return;
    setSupported(true);
    void runAutofill();
    return stopCeremonies;
  }, [runAutofill, stopCeremonies]);

  const signIn = async () => {
    // A new ceremony stops the autofill's (@simplewebauthn/browser aborts it), whose loop then ends.
    const mine = ++generation.current;
    onAlert(null);
    setBusy(true);
    try {
      const loaded = (flow.current ??= await loadFlow());
      const step = await loaded.signInWithPasskey({
        targets: config.regions,
        clientType: readClientType(),
        allowList: config.redirectAllowList,
      });
      if (generation.current === mine) proceed(step);
    } catch (error) {
      if (generation.current !== mine) return;
      // Loaded with the flow; when even that could not load, the network is the problem.
      const messages = await import('../../i18n/passkey-messages').catch(() => null);
      const message: Message | null = messages
        ? messages.passkeyFailureMessage(error, 'signIn')
        : { key: 'errors.generic' };
      if (message) onAlert(message);
      void runAutofill();
    } finally {
      setBusy(false);
    }
  };

  if (!supported) return null;
  return (
    <Button
      id="passkey-sign-in"
      type="button"
      variant="secondary"
      icon="key"
      busy={busy || leaving}
      disabled={disabled}
      onClick={() => void signIn()}
    >
      {t('passkey.signIn')}
    </Button>
  );
}
