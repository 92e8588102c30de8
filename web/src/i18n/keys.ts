import type { ParseKeys } from 'i18next';

/** A key of the English catalogue (i18next.d.ts): `t` accepts no other, so a missing key fails the typecheck. */
export type TranslationKey = ParseKeys;

/** A key written where it is not handed straight to `t` (a yup message, say), checked against the catalogue all the same. */
export const translationKey = (key: TranslationKey): TranslationKey => key;

/**
 * Form errors travel through yup and formik as plain strings. The sign-in forms' schemas write every message with
 * `translationKey`, so a string read back from a form's errors is one of those keys.
 */
export const fromFormError = (error: string) => error as TranslationKey;
