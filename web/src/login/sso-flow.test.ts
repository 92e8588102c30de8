import { createHash } from 'node:crypto';
import { ApiFailure } from '../api/api-failure';
import type { RegionTarget } from '../config/config';
import {
  BRAZIL,
  EUROPE,
  NETWORK_DOWN,
  type FakeCall,
  type Route,
  apiError,
  fakeApi,
  idpProbeReply,
  sessionBody,
} from '../test/fake-api';
import { REDIRECT } from '../test/render-app';
import { readPendingSession, readRegion, storeRedirectUrl } from './sign-in-storage';
import { SsoFailure, emailDomain, finishSso, probeSsoRegions, ssoRedirectUri, startSso } from './sso-flow';
import { type SsoAttempt, storeSsoAttempt, takeSsoAttempt } from './sso-storage';

const targets: RegionTarget[] = [
  { region: 'eu-north-1', baseUrl: EUROPE },
  { region: 'sa-east-1', baseUrl: BRAZIL },
];
const allowList = [REDIRECT];
const REDIRECT_URI = 'http://localhost:5173/login/sso';
const IDP = 'https://idp.example.test/authorize?client_id=x';
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const unverified = sessionBody({ oidc: 'unverified' });
const verified = {
  ...sessionBody({ oidc: 'verified' }),
  accessToken: 'access-verified',
  refreshToken: 'refresh-verified',
};

function europeOnly(type: 'oidc' | 'saml' | 'skolon' | null = 'oidc'): Route {
  return (call) =>
    call.url.origin === EUROPE ? idpProbeReply('eu-north-1', type) : idpProbeReply('sa-east-1', null, BRAZIL);
}

describe('emailDomain', () => {
  test.each([
    ['anna@Sso.Demo.TEST', 'sso.demo.test'],
    ['  anna@sso.demo.test ', 'sso.demo.test'],
    ['"a@b"@example.com', 'example.com'],
  ])('of %j is %j', (email, domain) => {
    expect(emailDomain(email)).toBe(domain);
  });
});

describe('probeSsoRegions', () => {
  const input = { email: 'Anna@SSO.demo.test', clientType: null, targets };

  test('asks every region for the lowercased domain with GET /probes/idpDomain/{domain} and the version header', async () => {
    const { calls } = fakeApi(europeOnly());
    await expect(probeSsoRegions(input)).resolves.toEqual([{ region: 'eu-north-1', baseUrl: EUROPE, kind: 'oidc' }]);
    expect(calls.map((call) => `${call.method} ${call.url.href}`).sort()).toEqual([
      `GET ${EUROPE}/core/v1/probes/idpDomain/sso.demo.test`,
      `GET ${BRAZIL}/core/v1/probes/idpDomain/sso.demo.test`,
    ]);
    for (const call of calls) expect(call.headers.get('cosafe-core-api-version')).toBe('1');
  });

  test('for the academy, Brazil is not asked', async () => {
    const { calls } = fakeApi(europeOnly('saml'));
    await expect(probeSsoRegions({ ...input, clientType: 'academy' })).resolves.toEqual([
      { region: 'eu-north-1', baseUrl: EUROPE, kind: 'saml' },
    ]);
    expect(calls.map((call) => call.url.origin)).toEqual([EUROPE]);
  });

  test('answers an empty list when no region has SSO for the domain', async () => {
    fakeApi(europeOnly(null));
    await expect(probeSsoRegions(input)).resolves.toEqual([]);
  });

  test('answers every region that has the domain, in configuration order, with its protocol', async () => {
    fakeApi((call) =>
      call.url.origin === EUROPE ? idpProbeReply('se-sto', 'skolon') : idpProbeReply('sa-east-1', 'oidc', BRAZIL),
    );
    await expect(probeSsoRegions(input)).resolves.toEqual([
      { region: 'se-sto', baseUrl: EUROPE, kind: 'skolon' },
      { region: 'sa-east-1', baseUrl: BRAZIL, kind: 'oidc' },
    ]);
  });

  test('a region that has the domain wins over another that cannot be reached', async () => {
    fakeApi((call) => (call.url.origin === EUROPE ? idpProbeReply('eu-north-1', 'oidc') : NETWORK_DOWN(call)));
    await expect(probeSsoRegions(input)).resolves.toHaveLength(1);
  });

  test('with no domain found and a region rate limiting, throws its TOO_MANY_REQUESTS (the latest wait)', async () => {
    fakeApi((call) =>
      call.url.origin === EUROPE
        ? apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:00:00.000Z' })
        : apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: '2030-01-01T10:09:00.000Z' }),
    );
    await expect(probeSsoRegions(input)).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      unavailableUntil: '2030-01-01T10:09:00.000Z',
    });
  });

  test('with no domain found and a region unreachable, throws NETWORK_ERROR rather than saying there is no SSO', async () => {
    fakeApi((call) => (call.url.origin === EUROPE ? idpProbeReply('eu-north-1', null) : NETWORK_DOWN(call)));
    await expect(probeSsoRegions(input)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  test('an answer with an unknown protocol counts as a failure', async () => {
    fakeApi((call) =>
      call.url.origin === EUROPE
        ? { status: 200, body: { region: 'eu-north-1', baseUrl: EUROPE, available: true, type: 'kerberos' } }
        : idpProbeReply('sa-east-1', null, BRAZIL),
    );
    await expect(probeSsoRegions(input)).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
  });
});

describe('startSso', () => {
  function api(session = unverified): { calls: FakeCall[] } {
    return fakeApi((call) => {
      if (call.url.pathname === '/core/v1/sessions') return { status: 201, body: session };
      if (call.url.pathname.endsWith('/challenges')) return { status: 201, body: { authorizationUrl: IDP } };
      return apiError(404, 'NOT_FOUND');
    });
  }

  test('OIDC: creates the sso session, sends S256(verifier), the redirect URI and a state, and remembers them in this tab', async () => {
    const { calls } = api();
    const url = await startSso(
      { region: 'eu-north-1', baseUrl: EUROPE, kind: 'oidc' },
      ' anna@sso.demo.test ',
      REDIRECT_URI,
    );
    expect(url).toBe(IDP);
    expect(calls[0]).toMatchObject({ method: 'POST', body: { grantType: 'sso', email: 'anna@sso.demo.test' } });
    expect(calls[0].url.href).toBe(`${EUROPE}/core/v1/sessions`);
    expect(calls[1].url.href).toBe(`${EUROPE}/core/v1/sessions/${unverified.id}/challenges`);
    expect(calls[1].headers.get('authorization')).toBe(`Bearer ${unverified.accessToken}`);
    const attempt = takeSsoAttempt()!;
    expect(attempt).toMatchObject({
      kind: 'oidc',
      region: 'eu-north-1',
      baseUrl: EUROPE,
      session: { id: unverified.id, accessToken: unverified.accessToken },
    });
    expect(attempt.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(calls[1].body).toEqual({
      oidc: {
        codeChallenge: s256(attempt.codeVerifier!),
        codeChallengeMethod: 'S256',
        redirectUri: REDIRECT_URI,
        state: attempt.state,
      },
    });
    expect(attempt.state).toMatch(/^[\w-]{43}$/);
    expect(readRegion()).toBe('eu-north-1');
    // The refresh token of the unverified session is not kept: only what the answer needs.
    expect(JSON.stringify(attempt)).not.toContain(unverified.refreshToken);
  });

  test('the kind comes from the session the server created (Skolon) even when the probe said otherwise', async () => {
    const { calls } = api(sessionBody({ skolon: 'unverified' }));
    await startSso({ region: 'eu-north-1', baseUrl: EUROPE, kind: 'oidc' }, 'teacher@school.test', REDIRECT_URI);
    expect(Object.keys(calls[1].body as object)).toEqual(['skolon']);
    expect(takeSsoAttempt()?.kind).toBe('skolon');
  });

  test('SAML: asks for the AuthnRequest URL with the redirect URI only', async () => {
    const { calls } = api(sessionBody({ saml: 'unverified' }));
    await startSso({ region: 'sa-east-1', baseUrl: BRAZIL, kind: 'saml' }, 'ana@escola.test', REDIRECT_URI);
    expect(calls[1].url.origin).toBe(BRAZIL);
    expect(calls[1].body).toEqual({ saml: { redirectUri: REDIRECT_URI } });
    expect(takeSsoAttempt()).toMatchObject({ kind: 'saml', region: 'sa-east-1', baseUrl: BRAZIL });
  });

  test('the default redirect URI is this origin’s /login/sso', () => {
    expect(ssoRedirectUri()).toBe(`${window.location.origin}/login/sso`);
    expect(ssoRedirectUri('https://signin.example-product.com')).toBe('https://signin.example-product.com/login/sso');
  });

  test('a refused challenge stores nothing and throws the server’s code', async () => {
    fakeApi((call) =>
      call.url.pathname === '/core/v1/sessions'
        ? { status: 201, body: unverified }
        : apiError(400, 'INVALID_REDIRECT_URI'),
    );
    await expect(
      startSso({ region: 'eu-north-1', baseUrl: EUROPE, kind: 'oidc' }, 'anna@sso.demo.test', REDIRECT_URI),
    ).rejects.toMatchObject({ code: 'INVALID_REDIRECT_URI' });
    expect(takeSsoAttempt()).toBeNull();
  });

  test('an authorizationUrl that is not http(s) is refused', async () => {
    fakeApi((call) =>
      call.url.pathname === '/core/v1/sessions'
        ? { status: 201, body: unverified }
        : { status: 201, body: { authorizationUrl: 'javascript:alert(1)' } },
    );
    await expect(
      startSso({ region: 'eu-north-1', baseUrl: EUROPE, kind: 'oidc' }, 'anna@sso.demo.test', REDIRECT_URI),
    ).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
  });
});

describe('finishSso', () => {
  const oidcAttempt: SsoAttempt = {
    kind: 'oidc',
    region: 'eu-north-1',
    baseUrl: EUROPE,
    session: { id: unverified.id, accessToken: unverified.accessToken },
    codeVerifier: 'v'.repeat(64),
    state: 'the-state',
  };
  const samlAttempt: SsoAttempt = {
    kind: 'saml',
    region: 'sa-east-1',
    baseUrl: BRAZIL,
    session: { id: unverified.id, accessToken: unverified.accessToken },
  };
  const given = (attempt: SsoAttempt) => {
    storeRedirectUrl(REDIRECT);
    storeSsoAttempt(attempt);
  };
  const verifying = (reply: Route = () => ({ status: 200, body: verified })) => fakeApi(reply);
  const params = (query: Record<string, string>) => new URLSearchParams(query);

  test('OIDC: with the matching state, sends code, verifier and state, and answers the redirect to the platform', async () => {
    given(oidcAttempt);
    const { calls } = verifying();
    const step = await finishSso(
      params({ code: 'the-code', state: 'the-state', iss: 'https://idp.example.test' }),
      allowList,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'PATCH',
      body: { oidc: { authorizationCode: 'the-code', codeVerifier: 'v'.repeat(64), state: 'the-state' } },
    });
    expect(calls[0].url.href).toBe(`${EUROPE}/core/v1/sessions/${unverified.id}`);
    expect(calls[0].headers.get('authorization')).toBe(`Bearer ${unverified.accessToken}`);
    expect(step.kind).toBe('redirect');
    const url = new URL((step as { url: string }).url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      refreshToken: 'refresh-verified',
      sessionId: verified.id,
      region: 'eu-north-1',
    });
    expect(window.sessionStorage.length).toBe(0);
  });

  test.each([
    ['another state', { code: 'c', state: 'not-the-state' }],
    ['no state', { code: 'c' }],
    ['no code', { state: 'the-state' }],
    ['nothing', {}],
  ])('OIDC: with %s, sends nothing and throws SSO_STATE_MISMATCH', async (_name, query) => {
    given(oidcAttempt);
    const { calls } = verifying();
    await expect(finishSso(params(query), allowList)).rejects.toEqual(new SsoFailure('SSO_STATE_MISMATCH'));
    expect(calls).toHaveLength(0);
  });

  test('Skolon answers with a skolon body', async () => {
    given({ ...oidcAttempt, kind: 'skolon' });
    const { calls } = verifying();
    await finishSso(params({ code: 'c', state: 'the-state' }), allowList);
    expect(Object.keys(calls[0].body as object)).toEqual(['skolon']);
  });

  test('SAML: with this session’s id, sends the one-time code to the session’s region', async () => {
    given(samlAttempt);
    const { calls } = verifying();
    const step = await finishSso(params({ sessionId: unverified.id, code: 'one-time' }), allowList);
    expect(calls[0].url.href).toBe(`${BRAZIL}/core/v1/sessions/${unverified.id}`);
    expect(calls[0].body).toEqual({ saml: { code: 'one-time' } });
    expect(new URL((step as { url: string }).url).searchParams.get('region')).toBe('sa-east-1');
  });

  test('SAML: with another session id, sends nothing', async () => {
    given(samlAttempt);
    const { calls } = verifying();
    await expect(finishSso(params({ sessionId: 'another', code: 'one-time' }), allowList)).rejects.toEqual(
      new SsoFailure('SSO_STATE_MISMATCH'),
    );
    expect(calls).toHaveLength(0);
  });

  test.each(['saml_validation_failed', 'user_not_found', 'unauthorized_organization'])(
    'SAML error=%s is that problem, and nothing is sent',
    async (error) => {
      given(samlAttempt);
      const { calls } = verifying();
      await expect(finishSso(params({ error }), allowList)).rejects.toEqual(new SsoFailure(error as never));
      expect(calls).toHaveLength(0);
    },
  );

  test('an OAuth error from the identity provider (access_denied) is SSO_REFUSED', async () => {
    given(oidcAttempt);
    await expect(finishSso(params({ error: 'access_denied', state: 'the-state' }), allowList)).rejects.toEqual(
      new SsoFailure('SSO_REFUSED'),
    );
  });

  test('without an attempt in this tab, throws SSO_NOT_STARTED', async () => {
    const { calls } = verifying();
    await expect(finishSso(params({ code: 'c', state: 's' }), allowList)).rejects.toEqual(
      new SsoFailure('SSO_NOT_STARTED'),
    );
    expect(calls).toHaveLength(0);
  });

  test('the attempt is used once: a second return (reload, back button) finds none', async () => {
    given(oidcAttempt);
    verifying();
    await finishSso(params({ code: 'c', state: 'the-state' }), allowList);
    await expect(finishSso(params({ code: 'c', state: 'the-state' }), allowList)).rejects.toEqual(
      new SsoFailure('SSO_NOT_STARTED'),
    );
  });

  test('a tampered stored attempt (a short verifier) counts as none', async () => {
    given({ ...oidcAttempt, codeVerifier: 'short' });
    await expect(finishSso(params({ code: 'c', state: 'the-state' }), allowList)).rejects.toEqual(
      new SsoFailure('SSO_NOT_STARTED'),
    );
  });

  test('a refusal from the region is thrown as its ApiFailure, and the attempt is gone', async () => {
    given(oidcAttempt);
    verifying(() => apiError(401, 'INVALID_SSO_ID_TOKEN'));
    const failure = await finishSso(params({ code: 'c', state: 'the-state' }), allowList).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ code: 'INVALID_SSO_ID_TOKEN' });
    expect(takeSsoAttempt()).toBeNull();
  });

  test('a verified session that still needs a one-time code continues to /login/2fa', async () => {
    given(oidcAttempt);
    const session = sessionBody({ oidc: 'verified', otpEmail: 'unverified' });
    verifying(() => ({ status: 200, body: session }));
    await expect(finishSso(params({ code: 'c', state: 'the-state' }), allowList)).resolves.toEqual({
      kind: 'two-factor',
    });
    expect(readPendingSession()).toEqual({ session, region: 'eu-north-1', baseUrl: EUROPE });
  });

  test('a stored redirect that is not allowed any more goes to /invalid-redirect', async () => {
    given(oidcAttempt);
    verifying();
    await expect(
      finishSso(params({ code: 'c', state: 'the-state' }), ['https://app.example-product.com/login']),
    ).resolves.toEqual({ kind: 'invalid-redirect' });
    expect(window.sessionStorage.length).toBe(0);
  });
});
