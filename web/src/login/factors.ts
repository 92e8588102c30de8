import type { SessionFactors } from '../api/create-session';

/** The session still has a one-time code (email or SMS) to prove before the platform may use it. */
export function needsOneTimeCode(factors: SessionFactors): boolean {
  return isUnverified(factors, 'otpEmail') || isUnverified(factors, 'otpSms');
}

export function isSmsUnverified(factors: SessionFactors): boolean {
  return isUnverified(factors, 'otpSms');
}

function isUnverified(factors: SessionFactors, factor: 'otpEmail' | 'otpSms'): boolean {
  return (factors as Record<string, unknown>)[factor] === 'unverified';
}

/** The user has a passkey in the session's region that may prove the pending second factor instead of a code. */
export function hasPasskeyFactor(factors: SessionFactors): boolean {
  return (factors as Record<string, unknown>).passkey === 'unverified';
}
