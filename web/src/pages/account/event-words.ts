import type { TFunction } from 'i18next';
import type { SecurityEvent } from '../../api/account';
import type { TranslationKey } from '../../i18n/keys';
import { formatMoment } from './format';

const KIND_KEYS: Record<SecurityEvent['kind'], TranslationKey> = {
  sign_in_succeeded: 'account.events.kind.signInSucceeded',
  sign_in_failed: 'account.events.kind.signInFailed',
  sign_in_locked_out: 'account.events.kind.signInLocked',
  sign_in_stepped_up: 'account.events.kind.steppedUp',
  second_factor_failed: 'account.events.kind.secondFactorFailed',
  passkey_added: 'account.events.kind.passkeyAdded',
  passkey_removed: 'account.events.kind.passkeyRemoved',
  password_changed: 'account.events.kind.passwordChanged',
  password_reset: 'account.events.kind.passwordReset',
  sessions_ended: 'account.events.kind.sessionsEnded',
  permission_granted: 'account.events.kind.permissionGranted',
  permission_revoked: 'account.events.kind.permissionRevoked',
  member_provisioned: 'account.events.kind.memberChanged',
  member_updated: 'account.events.kind.memberChanged',
  member_deactivated: 'account.events.kind.memberChanged',
  member_removed: 'account.events.kind.memberChanged',
};

/**
 * One event in plain words: "A failed sign-in from 203.0.113.0/24 at 29 Nov 2026, 03:12". A sign-in stepped up
 * is by the server's definition one from a network the account does not know: "from a new network". What another
 * user (an administrator) did says so.
 */
export function eventInWords(event: SecurityEvent, t: TFunction, language: string): string {
  const kind = t(KIND_KEYS[event.kind] ?? 'account.events.kind.other');
  const what = event.actor.type === 'user' ? `${kind} ${t('account.events.byAdministrator')}` : kind;
  const time = formatMoment(event.at, language);
  if (event.kind === 'sign_in_stepped_up') return t('account.events.lineNewNetwork', { what, time });
  const network = event.client.network;
  return network ? t('account.events.lineFrom', { what, network, time }) : t('account.events.line', { what, time });
}
