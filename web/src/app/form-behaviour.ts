import type { FormikProps } from 'formik';
import { type ChangeEvent, type FocusEvent, type FormEvent, useRef } from 'react';
import type { Message } from '../i18n/failure-messages';
import { type TranslationKey, fromFormError } from '../i18n/keys';
import { CONNECTION } from './load-code';
import { CODE_NOT_LOADED } from './schema-validation';

type FieldEvent = ChangeEvent<HTMLInputElement | HTMLSelectElement>;
type LeaveEvent = FocusEvent<HTMLInputElement | HTMLSelectElement>;

/** What the sign-in forms read of a formik form, with the product's rules for when an error shows. */
export interface FormBehaviour<Values> {
  values: Values;
  submitCount: number;
  isSubmitting: boolean;
  /**
   * "Check your connection and try again" after a submit attempt whose validation code could not be fetched
   * (schema-validation.ts): the attempt is over, and the next press loads it again.
   */
  notLoaded: Message | null;
  /** The message key to show on a field: after a submit attempt, or once the user changed the field and left it. */
  shownError: (field: keyof Values) => TranslationKey | undefined;
  setFieldValue: (field: keyof Values & string, value: string) => void;
  handleChange: (event: FieldEvent) => void;
  handleBlur: (event: LeaveEvent) => void;
  /** Validates, then submits; a submit while one is under way is ignored. */
  handleSubmit: (event?: FormEvent) => Promise<void>;
}

/*
 * A field left by pressing a pointer on something else (a link, a button) shows its error only once that press
 * has ended and its click has landed: an error line appearing under the field on blur would move what is under
 * the pointer, and the click would miss ("Forgot your password?" after typing an email).
 */
let pointerPressed = false;
const afterPointer: (() => void)[] = [];
let listening = false;

function whenPointerReleased(action: () => void): void {
  if (!pointerPressed) return action();
  afterPointer.push(action);
}

function listenToPointer(): void {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  document.addEventListener('pointerdown', () => (pointerPressed = true), true);
  const release = () => {
    pointerPressed = false;
    // The click follows pointerup in the same task: run after it.
    setTimeout(() => afterPointer.splice(0).forEach((action) => action()), 0);
  };
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
}

/**
 * Wraps a `useFormik` form with the sign-in app's rules: a field the user never changed is not judged when she
 * leaves it (tabbing past an autofocused empty field, clicking a link, switching the language), only when she
 * submits; a field she changed is judged when she leaves it.
 */
export function useFormBehaviour<Values extends Record<string, string>>(
  form: FormikProps<Values>,
): FormBehaviour<Values> {
  listenToPointer();
  const edited = useRef(new Set<string>());
  const submitting = useRef(false);

  const markEdited = (field: string) => edited.current.add(field);
  return {
    values: form.values,
    submitCount: form.submitCount,
    isSubmitting: form.isSubmitting,
    notLoaded: form.submitCount > 0 && CODE_NOT_LOADED in form.errors ? CONNECTION : null,
    shownError: (field) => {
      const error = form.errors[field];
      if (typeof error !== 'string') return undefined;
      return form.submitCount > 0 || form.touched[field] ? fromFormError(error) : undefined;
    },
    setFieldValue: (field, value) => {
      markEdited(field);
      void form.setFieldValue(field, value);
    },
    handleChange: (event) => {
      markEdited(event.target.name);
      form.handleChange(event);
    },
    handleBlur: (event) => {
      const field = event.target.name;
      if (!edited.current.has(field)) return;
      whenPointerReleased(() => void form.setFieldTouched(field, true));
    },
    handleSubmit: async (event) => {
      event?.preventDefault();
      if (submitting.current) return;
      submitting.current = true;
      try {
        await form.submitForm();
      } finally {
        submitting.current = false;
      }
    },
  };
}
