import { type FormikErrors, type FormikValues, validateYupSchema, yupToFormErrors } from 'formik';
import type { Schema } from 'yup';

/**
 * A formik `validate` that runs a yup schema loaded on first use, so yup stays out of the JavaScript the
 * login screen needs to appear (the first validation waits for it; after that it is in memory).
 */
export function lazySchema<Values extends FormikValues>(load: () => Promise<Schema>): (values: Values) => Promise<FormikErrors<Values>> {
  return async (values) => {
    const schema = await load();
    try {
      await validateYupSchema(values, schema);
      return {};
    } catch (error) {
      if ((error as Error).name === 'ValidationError') return yupToFormErrors(error);
      throw error;
    }
  };
}
