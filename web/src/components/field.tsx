import type { ReactNode } from 'react';
import { Icon } from './icon';

export interface FieldParts {
  /** ids of the error, notice and message paragraphs, for aria-describedby */
  describedBy: string | undefined;
  invalid: boolean;
}

interface FieldProps {
  id: string;
  label: string;
  message?: string;
  error?: string;
  /** A passing remark about what is being typed (Caps Lock is on), announced politely. */
  notice?: string;
  /**
   * Whether a new error is announced by the field's live region (default). Off where the error is read otherwise:
   * after a submit attempt the focus moves to the first field in error, which reads it through aria-describedby.
   */
  errorLive?: boolean;
  children: (parts: FieldParts) => ReactNode;
}

/** Label, control, helper message, notice and error text, tied together for assistive technology. */
export function Field({ id, label, message, error, notice, errorLive = true, children }: FieldProps) {
  const messageId = message ? `${id}-message` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const noticeId = notice ? `${id}-notice` : undefined;
  const describedBy = [errorId, noticeId, messageId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ describedBy, invalid: Boolean(error) })}
      {message && (
        <p id={messageId} className="field__message">
          {message}
        </p>
      )}
      {error && !errorLive && errorText(errorId, error)}
      <div aria-live="polite">
        {error && errorLive && errorText(errorId, error)}
        {notice && (
          <p id={noticeId} className="field__notice">
            <Icon name="alert-triangle" size={16} />
            {notice}
          </p>
        )}
      </div>
    </div>
  );
}

function errorText(id: string | undefined, error: string) {
  return (
    <p id={id} className="field__error">
      <Icon name="alert-circle" size={16} />
      {error}
    </p>
  );
}
