import type { components } from '../../../generated/core-api';
import { type FakeCall, type Reply, type Route, apiError } from './fake-api';

type Passkey = components['schemas']['Passkey'];
type ActiveSession = components['schemas']['ActiveSession'];
type SecurityEvent = components['schemas']['SecurityEvent'];

export const SESSION_ID = '0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11';
/** /account as a platform opens it, handing over its session in the fragment. */
export const HANDED_OVER = `/account#region=eu-north-1&sessionId=${SESSION_ID}&accessToken=access-1`;
export const PASSWORD = 'Correct horse 1!';

export const laptop: Passkey = {
  id: '3f2c7a9e-1b4d-4e6f-8a0b-2c4d6e8f0a1b',
  name: 'Work laptop',
  createdAt: '2026-11-22T08:00:00.000Z',
  lastUsedAt: '2026-11-23T07:45:12.000Z',
  authenticator: 'Windows Hello',
  suspicious: false,
};
export const phone: Passkey = {
  ...laptop,
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  name: 'Phone',
  authenticator: null,
};

export const here: ActiveSession = {
  id: SESSION_ID,
  createdAt: '2026-11-22T08:00:00.000Z',
  lastUsedAt: '2026-11-29T07:45:12.000Z',
  current: true,
  signedInWith: ['password', 'otpEmail'],
  device: { type: 'desktop', browser: 'Firefox', os: 'Windows' },
  network: '192.0.2.0/24',
};
export const lostPhone: ActiveSession = {
  id: '7c1e5b2a-9d3f-4e8a-b6c0-1f2e3d4c5b6a',
  createdAt: '2026-11-20T18:12:00.000Z',
  lastUsedAt: '2026-11-28T21:03:40.000Z',
  current: false,
  signedInWith: ['passkey'],
  device: { type: 'mobile', browser: 'Safari', os: 'iOS' },
  network: '2001:db8:4a2b::/48',
};
export const tablet: ActiveSession = {
  ...lostPhone,
  id: '5d4c3b2a-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  device: { type: 'tablet', browser: null, os: null },
  network: null,
};

export const failedSignIn: SecurityEvent = {
  id: '1042',
  at: '2026-11-29T03:12:07.000Z',
  kind: 'sign_in_failed',
  outcome: 'failed',
  tenantId: null,
  userId: 17,
  actor: { type: 'self', userId: 17 },
  region: 'eu-north-1',
  client: { network: '203.0.113.0/24', userAgent: 'Mozilla/5.0' },
  details: { method: 'password' },
};

const CREATION_OPTIONS = {
  challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZS0zMi1ieXRlcy1sb25nIQ',
  rp: { name: 'Sign-in', id: 'localhost' },
  user: { id: 'ZXUtbm9ydGgtMTo3', name: 'anna@demo.test', displayName: 'Anna Lindqvist' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  timeout: 300_000,
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  attestation: 'none',
};

const page = <T>(data: T[]) => ({
  status: 200,
  body: { data, pagination: { totalCount: data.length, offset: 0, limit: 10 } },
});

/**
 * A region as the account page meets it: her passkeys, sessions and events; every change of a passkey needs a
 * recent proof until `proven` (her password is PASSWORD). `state` shows what the region holds after the calls.
 */
export function accountRegion({
  passkeys = [laptop, phone],
  sessions = [here, lostPhone, tablet],
  events = [failedSignIn],
  proven = false,
}: { passkeys?: Passkey[]; sessions?: ActiveSession[]; events?: SecurityEvent[]; proven?: boolean } = {}) {
  const state = { passkeys: [...passkeys], sessions: [...sessions], events: [...events], proven, password: PASSWORD };
  const route: Route = (call: FakeCall): Reply => {
    const path = call.url.pathname.replace('/core/v1', '');
    const body = call.body as Record<string, unknown> | undefined;
    if (call.method === 'GET' && path === '/passkeys') return page(state.passkeys);
    if (call.method === 'GET' && path === '/sessions') return page(state.sessions);
    if (call.method === 'GET' && path === '/account/security-events')
      return { status: 200, body: { data: state.events, nextCursor: null } };
    if (path === `/sessions/${SESSION_ID}/reauthentication`) {
      if (body?.password !== undefined && body.password !== state.password) return apiError(401, 'INVALID_CREDENTIALS');
      state.proven = true;
      return { status: 200, body: { provenAt: new Date().toISOString(), validUntil: new Date().toISOString() } };
    }
    if (path === '/passkeys/registration-options') return { status: 200, body: CREATION_OPTIONS };
    if (call.method === 'POST' && path === '/passkeys') {
      if (state.passkeys.length >= 10) return apiError(409, 'LIMIT_REACHED');
      const added = { ...laptop, id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', name: 'Passkey', lastUsedAt: null };
      state.passkeys = [added, ...state.passkeys];
      return { status: 201, body: added };
    }
    if (path === '/passkeys/authentication-options')
      return { status: 200, body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', timeout: 60_000 } };
    if (call.method === 'DELETE' && path === '/sessions' && call.url.searchParams.get('others') === 'true') {
      const ended = state.sessions.filter((session) => !session.current).length;
      state.sessions = state.sessions.filter((session) => session.current);
      return { status: 200, body: { ended } };
    }
    if (call.method === 'DELETE' && path.startsWith('/sessions/')) {
      const id = path.replace('/sessions/', '');
      state.sessions = state.sessions.filter((session) => session.id !== id);
      return { status: 204 };
    }
    if (call.method === 'POST' && path === '/users/password-change') {
      if (body?.currentPassword !== state.password) return apiError(401, 'INVALID_CREDENTIALS');
      state.password = String(body?.newPassword);
      state.sessions = state.sessions.filter((session) => session.current);
      return { status: 204 };
    }
    if ((call.method === 'PATCH' || call.method === 'DELETE') && path.startsWith('/passkeys/')) {
      const id = path.replace('/passkeys/', '');
      if (!state.proven) return apiError(401, 'REAUTHENTICATION_REQUIRED');
      if (call.method === 'DELETE') {
        state.passkeys = state.passkeys.filter((passkey) => passkey.id !== id);
        return { status: 204 };
      }
      const name = String(body?.name);
      state.passkeys = state.passkeys.map((passkey) => (passkey.id === id ? { ...passkey, name } : passkey));
      return { status: 200, body: state.passkeys.find((passkey) => passkey.id === id) };
    }
    throw new Error(`Unexpected call ${call.method} ${call.url.href}`);
  };
  return { state, route };
}

/** The calls that change a passkey. */
export const passkeyChanges = (calls: FakeCall[]) =>
  calls.filter(
    (call) => (call.method === 'PATCH' || call.method === 'DELETE') && call.url.pathname.includes('/passkeys/'),
  );

/**
 * The account page's code loads on its own chunk (and each section's answer comes after it): on a busy machine the
 * first render can take longer than the one second testing-library waits by default.
 */
export const ACCOUNT_WAIT_MS = 5000;
