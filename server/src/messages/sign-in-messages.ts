// What the sign-in flows send: one-time codes (email, SMS), password reset links and invitations.
import { composeEmail, type RenderedEmail } from './email';
import type { Language } from './languages';
import { t } from './render';

export interface RenderedText {
  language: Language;
  body: string;
}

export const oneTimeCodeEmail = (language: Language, input: { code: string; minutes: number }): RenderedEmail =>
  composeEmail(language, t(language, 'otp.emailSubject', input), [
    { text: t(language, 'otp.emailCode', input) },
    { text: t(language, 'otp.emailValidity', input) },
  ]);

/**
 * The SMS ends with the origin-bound code line (`@login.example.com #123456`, the format of WebOTP and of iOS
 * domain-bound codes), so the phone offers the code to the sign-in app's page and to no other site.
 */
export const oneTimeCodeSms = (
  language: Language,
  input: { code: string; minutes: number; signInAppUrl: string },
): RenderedText => ({
  language,
  body: `${t(language, 'otp.sms', input)}\n${originBoundLine(input.signInAppUrl, input.code)}`,
});

/** `@<host of the sign-in app> #<code>`: a host name only (the format has no scheme and no port). */
export const originBoundLine = (signInAppUrl: string, code: string): string =>
  `@${new URL(signInAppUrl).hostname} #${code}`;

export const passwordResetEmail = (
  language: Language,
  input: { email: string; link: string; minutes: number },
): RenderedEmail =>
  composeEmail(language, t(language, 'passwordReset.subject'), [
    { text: t(language, 'passwordReset.intro', input) },
    { link: input.link, label: t(language, 'passwordReset.action') },
    { text: t(language, 'passwordReset.passkeys') },
    { text: t(language, 'passwordReset.ignore') },
  ]);

export const invitationEmail = (
  language: Language,
  input: { organisation: string; email: string; link: string; days: number },
): RenderedEmail =>
  composeEmail(language, t(language, 'invitation.subject', input), [
    { text: t(language, 'invitation.intro', input) },
    { link: input.link, label: t(language, 'invitation.action') },
    { text: t(language, 'invitation.expired') },
  ]);

/** The notice that a passkey was added to the account (a new way in, so the owner hears of it). */
export const passkeyAddedEmail = (
  language: Language,
  input: { name: string; email: string; removalLink: string; days: number },
): RenderedEmail =>
  composeEmail(language, t(language, 'passkey.addedSubject'), [
    { text: t(language, 'passkey.added', input) },
    { text: t(language, 'passkey.notYouAdded', input) },
    { link: input.removalLink, label: t(language, 'passkey.removeAction') },
  ]);

/** The notice that a passkey was removed from the account. */
export const passkeyRemovedEmail = (language: Language, input: { name: string; email: string }): RenderedEmail =>
  composeEmail(language, t(language, 'passkey.removedSubject'), [
    { text: t(language, 'passkey.removed', input) },
    { text: t(language, 'passkey.notYou') },
  ]);

/** The notice that the account's password was changed while signed in (when, and from which coarse network). */
export const passwordChangedEmail = (
  language: Language,
  input: { email: string; time: string; network: string },
): RenderedEmail =>
  composeEmail(language, t(language, 'passwordChanged.subject'), [
    { text: t(language, 'passwordChanged.changed', input) },
    { text: t(language, 'passwordChanged.notYou') },
  ]);
