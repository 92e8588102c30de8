import type { FormikErrors } from 'formik';
import type { Schema, ValidationError } from 'yup';

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
 * screen needs to appear (the first validation waits for it; after that it is in memory).
 */
export function lazySchema<Values>(load: () => Promise<Schema>): (values: Values) => Promise<FormikErrors<Values>> {
  return async (values) => schemaErrors(await load(), values);
}
