import { buildRedirectUrl } from './redirect-url';
import { completeSignIn } from './sign-in';
import {
  readPendingSession,
  readRedirectUrl,
  readRegion,
  storePendingSession,
  storeRedirectUrl,
  storeRegion,
} from './sign-in-storage';

const allowList = ['https://app.example-product.com/login', 'http://localhost:5174/login'];
const details = { refreshToken: 'rt_abc', sessionId: '0b6f2d4e-8a51-4c55-9a8e-3f3f6a0d2c11', region: 'eu-north-1' };

describe('buildRedirectUrl', () => {
  test('when everything is valid, adds refreshToken, sessionId and region as query parameters', () => {
    const url = new URL(buildRedirectUrl('https://app.example-product.com/login', details, allowList)!);
    expect(url.origin + url.pathname).toBe('https://app.example-product.com/login');
    expect(url.searchParams.get('refreshToken')).toBe('rt_abc');
    expect(url.searchParams.get('sessionId')).toBe(details.sessionId);
    expect(url.searchParams.get('region')).toBe('eu-north-1');
  });

  test('when the redirect already has a query and a fragment, keeps them', () => {
    const url = new URL(
      buildRedirectUrl('http://localhost:5174/login?tenant=4#top', { ...details, region: 'sa-east-1' }, allowList)!,
    );
    expect(url.searchParams.get('tenant')).toBe('4');
    expect(url.searchParams.get('region')).toBe('sa-east-1');
    expect(url.hash).toBe('#top');
  });

  test('when the redirect smuggles its own session parameters, ours replace them', () => {
    const url = new URL(
      buildRedirectUrl(
        'https://app.example-product.com/login?refreshToken=evil&sessionId=evil&region=evil',
        details,
        allowList,
      )!,
    );
    expect(url.searchParams.getAll('refreshToken')).toEqual(['rt_abc']);
    expect(url.searchParams.getAll('sessionId')).toEqual([details.sessionId]);
    expect(url.searchParams.getAll('region')).toEqual(['eu-north-1']);
  });

  test('when the token holds URL characters, they are encoded', () => {
    const href = buildRedirectUrl(
      'https://app.example-product.com/login',
      { ...details, refreshToken: 'a+b/c=&d' },
      allowList,
    )!;
    expect(href).not.toContain('a+b/c=&d');
    expect(new URL(href).searchParams.get('refreshToken')).toBe('a+b/c=&d');
  });

  test.each([
    ['the stored redirect is missing', null, details],
    ['the stored redirect is not allowed', 'https://evil.example/login', details],
    ['the region is missing', 'https://app.example-product.com/login', { ...details, region: null }],
    ['the region is unknown', 'https://app.example-product.com/login', { ...details, region: 'us-east-1' }],
    ['the refresh token is empty', 'https://app.example-product.com/login', { ...details, refreshToken: '' }],
    ['the session id is empty', 'https://app.example-product.com/login', { ...details, sessionId: '' }],
  ])('when %s, returns null', (_name, redirect, given) => {
    expect(buildRedirectUrl(redirect, given, allowList)).toBeNull();
  });
});

describe('completeSignIn', () => {
  const session = { id: 's-1', accessToken: 'at', refreshToken: 'rt', factors: { password: 'verified' as const } };

  test('when the stored redirect and region are valid, returns the redirect and clears the stored values', () => {
    storeRedirectUrl('http://localhost:5174/login');
    storeRegion('sa-east-1');
    storePendingSession({ session, region: 'sa-east-1', baseUrl: 'http://localhost:4001' });
    expect(completeSignIn(session, allowList)).toEqual({
      kind: 'redirect',
      url: 'http://localhost:5174/login?refreshToken=rt&sessionId=s-1&region=sa-east-1',
    });
    expect([readRedirectUrl(), readRegion(), readPendingSession()]).toEqual([null, null, null]);
    expect(window.sessionStorage.length).toBe(0);
  });

  test('when the stored region has been tampered with, goes to invalid-redirect and clears the stored values', () => {
    storeRedirectUrl('http://localhost:5174/login');
    window.sessionStorage.setItem('signIn.region', 'moon-base-1');
    expect(completeSignIn(session, allowList)).toEqual({ kind: 'invalid-redirect' });
    expect(window.sessionStorage.length).toBe(0);
  });

  test('when the stored redirect has been tampered with, goes to invalid-redirect', () => {
    window.sessionStorage.setItem('signIn.redirectUrl', 'https://evil.example/login');
    storeRegion('eu-north-1');
    expect(completeSignIn(session, allowList)).toEqual({ kind: 'invalid-redirect' });
  });
});
