import type { FormikErrors } from 'formik';
import type { Schema, ValidationError } from 'yup';
import { translationKey } from '../i18n/keys';

/**
 * The form-level "error" a lazily loaded schema reports when its code could not be fetched: formik then ends the
 * submit attempt (it is not valid) instead of waiting for ever, and the form shows "Check your connection"
 * (form-behaviour.ts). Not a field name: no field shows it.
 */
export const CODE_NOT_LOADED = '_codeNotLoaded';

/** Runs a yup schema over the values: the first message of each failing field (messages are translation keys). */
export async function schemaErrors<Values>(schema: Schema, values: Values): Promise<FormikErrors<Values>> {
  try {
    await schema.validate(values, { abortEarly: false });
    return {};
  } catch (error) {
    if ((error as Error).name !== 'ValidationError') throw error;
    const errors: Record<string, string> = {};
    const failed = error as ValidationError;
    for (const failure of failed.inner.length > 0 ? failed.inner : [failed])
      if (failure.path && !(failure.path in errors)) errors[failure.path] = failure.message;
    return errors as FormikErrors<Values>;
  }
}

/**
 * A formik `validate` that runs a yup schema loaded on first use, so yup stays out of the JavaScript the login
 * screen needs to appear (the first validation waits for it; after that it is in memory). A load that fails is
 * not remembered: the next validation (the next press) loads it again.
 */
export function lazySchema<Values>(load: () => Promise<Schema>): (values: Values) => Promise<FormikErrors<Values>> {
  let loaded: Schema | undefined;
  return async (values) => {
    if (!loaded) {
      try {
        loaded = await load();
      } catch {
        return { [CODE_NOT_LOADED]: translationKey('errors.connection') } as FormikErrors<Values>;
      }
    }
    return schemaErrors(loaded, values);
  };
}
