import { type ReactNode, createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { ApiFailure } from '../../api/api-failure';
import { type SessionRef, refreshSession } from '../../api/account';
import { type CoreApiClient, clientFor } from '../../api/client';
import { hasSessionEnded } from '../../i18n/failure-messages';
import { type AccountSession, storeAccountSession } from '../../login/account-session';

/** The user closed the prompt for her credentials: the change she asked for was not made, and nothing is said. */
export class ProofCancelled extends Error {
  constructor() {
    super('Re-authentication cancelled');
    this.name = 'ProofCancelled';
  }
}

/** A change waiting for the user to prove her credentials again; `settle` ends the wait (an error: cancelled). */
export interface ProofRequest {
  settle: (error?: Error) => void;
}

interface AccountContextValue {
  session: AccountSession;
  client: CoreApiClient;
  /**
   * Runs one call with the session's tokens. An expired access token is refreshed once when the page holds the
   * refresh token; an answer `401 REAUTHENTICATION_REQUIRED` asks for the password or a passkey (the prompt), and
   * the call is made again once she proved them (a cancelled prompt throws ProofCancelled).
   */
  run: <T>(operation: (session: SessionRef) => Promise<T>) => Promise<T>;
  /** The change waiting for a proof, while the prompt is open. */
  proofRequest: ProofRequest | null;
  /** The session ended (signed out elsewhere, expired, ended from another device). */
  ended: boolean;
  /** Goes up after a change that others sections show (a password change ends sessions): they load again. */
  revision: number;
  changed: () => void;
}

const AccountContext = createContext<AccountContextValue | null>(null);

export function useAccount(): AccountContextValue {
  const value = useContext(AccountContext);
  if (!value) throw new Error('useAccount outside AccountProvider');
  return value;
}

const isFailure = (error: unknown, code: string) => error instanceof ApiFailure && error.code === code;

export function AccountProvider({ initial, children }: { initial: AccountSession; children: ReactNode }) {
  const session = useRef(initial);
  const [current, setCurrent] = useState(initial);
  const [proofRequest, setProofRequest] = useState<ProofRequest | null>(null);
  const [ended, setEnded] = useState(false);
  const [revision, setRevision] = useState(0);
  const changed = useCallback(() => setRevision((value) => value + 1), []);
  const client = clientFor(initial.baseUrl);

  // One refresh at a time: the sections load together, and each refresh rotates the refresh token.
  const refreshing = useRef<Promise<boolean> | null>(null);
  const refresh = useCallback(
    (expiredToken: string): Promise<boolean> => {
      // Another call refreshed the session since this one was sent: its new token is at hand.
      if (session.current.accessToken !== expiredToken) return Promise.resolve(true);
      const { refreshToken, sessionId } = session.current;
      if (!refreshToken) return Promise.resolve(false);
      refreshing.current ??= refreshSession(client, sessionId, refreshToken)
        .then((fresh) => {
          session.current = { ...session.current, accessToken: fresh.accessToken, refreshToken: fresh.refreshToken };
          storeAccountSession(session.current);
          setCurrent(session.current);
          return true;
        })
        .catch(() => false)
        .finally(() => {
          refreshing.current = null;
        });
      return refreshing.current;
    },
    [client],
  );

  const askForProof = useCallback(
    () =>
      new Promise<void>((resolve, reject) => {
        setProofRequest({
          settle: (error) => {
            setProofRequest(null);
            if (error) reject(error);
            else resolve();
          },
        });
      }),
    [],
  );

  const run = useCallback(
    async <T,>(operation: (ref: SessionRef) => Promise<T>): Promise<T> => {
      const attempt = () => operation({ id: session.current.sessionId, accessToken: session.current.accessToken });
      const withFreshToken = async () => {
        const sentWith = session.current.accessToken;
        try {
          return await attempt();
        } catch (error) {
          if (isFailure(error, 'EXPIRED_ACCESS_TOKEN') && (await refresh(sentWith))) return attempt();
          throw error;
        }
      };
      try {
        try {
          return await withFreshToken();
        } catch (error) {
          if (!isFailure(error, 'REAUTHENTICATION_REQUIRED')) throw error;
          await askForProof();
          return await withFreshToken();
        }
      } catch (error) {
        if (error instanceof ApiFailure && error.httpStatus === 401 && hasSessionEnded(error)) setEnded(true);
        throw error;
      }
    },
    [refresh, askForProof],
  );

  const value = useMemo(
    () => ({ session: current, client, run, proofRequest, ended, revision, changed }),
    [current, client, run, proofRequest, ended, revision, changed],
  );
  return <AccountContext value={value}>{children}</AccountContext>;
}
