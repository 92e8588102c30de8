import { type ChangeEvent, type FocusEvent, type FormEvent, useCallback, useRef, useState } from 'react';

/** Field name → message key of what is wrong with it (absent: nothing). */
export type FormErrors<Values> = Partial<Record<keyof Values, string>>;

export interface FormOptions<Values> {
  initialValues: Values;
  /** Checks every field at once (on each change, blur and submit); may be asynchronous (a schema loaded on demand). */
  validate: (values: Values) => FormErrors<Values> | Promise<FormErrors<Values>>;
  /** Runs when a submit finds no error; the form counts as submitting until it settles. */
  onSubmit: (values: Values) => Promise<void> | void;
}

export interface Form<Values> {
  values: Values;
  errors: FormErrors<Values>;
  submitCount: number;
  isSubmitting: boolean;
  /** The message key to show on a field: its error once the field was left or the form submitted. */
  shownError: (field: keyof Values) => string | undefined;
  setFieldValue: (field: keyof Values, value: string) => void;
  handleChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
  handleBlur: (event: FocusEvent<HTMLInputElement | HTMLSelectElement>) => void;
  /** Validates, then submits; a submit while one is under way is ignored. */
  handleSubmit: (event?: FormEvent) => Promise<void>;
}

/**
 * The state of a small form of text fields: values, errors, which fields were left, submit count and progress.
 * What the sign-in forms need of a form library, in a few hundred bytes instead of twelve kilobytes of the
 * JavaScript the login page waits for (docs/decisions.md, "Sign-in web app weight").
 */
export function useForm<Values extends Record<string, string>>({
  initialValues,
  validate,
  onSubmit,
}: FormOptions<Values>): Form<Values> {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FormErrors<Values>>({});
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitCount, setSubmitCount] = useState(0);
  const [isSubmitting, setSubmitting] = useState(false);
  const latest = useRef(values);
  const checks = useRef(0);
  const submitting = useRef(false);
  const options = useRef({ validate, onSubmit });
  options.current = { validate, onSubmit };

  // Only the newest check's answer is kept: an older, slower one must not overwrite it.
  const check = useCallback(async (checked: Values) => {
    const id = ++checks.current;
    const found = await options.current.validate(checked);
    if (id === checks.current) setErrors(found);
    return found;
  }, []);

  const setFieldValue = useCallback(
    (field: keyof Values, value: string) => {
      latest.current = { ...latest.current, [field]: value };
      setValues(latest.current);
      void check(latest.current);
    },
    [check],
  );

  const handleSubmit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      if (submitting.current) return;
      submitting.current = true;
      setSubmitCount((count) => count + 1);
      setSubmitting(true);
      try {
        const found = await check(latest.current);
        if (Object.keys(found).length === 0) await options.current.onSubmit(latest.current);
      } finally {
        submitting.current = false;
        setSubmitting(false);
      }
    },
    [check],
  );

  return {
    values,
    errors,
    submitCount,
    isSubmitting,
    shownError: (field) => ((touched[field] || submitCount > 0) && errors[field]) || undefined,
    setFieldValue,
    handleChange: (event) => setFieldValue(event.target.name as keyof Values, event.target.value),
    handleBlur: (event) => {
      setTouched((before) => ({ ...before, [event.target.name]: true }));
      void check(latest.current);
    },
    handleSubmit,
  };
}
