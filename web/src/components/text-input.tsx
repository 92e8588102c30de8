import type { ComponentProps, ReactNode } from 'react';
import { Field } from './field';

export interface TextInputProps extends Omit<ComponentProps<'input'>, 'id'> {
  id: string;
  label: string;
  message?: string;
  error?: string;
  notice?: string;
  /** See Field: whether a new error is announced by the field's live region. */
  errorLive?: boolean;
  /** Content after the input inside its frame (a button, an icon). */
  trailing?: ReactNode;
}

export function TextInput({
  id,
  label,
  message,
  error,
  notice,
  errorLive,
  trailing,
  className,
  ...input
}: TextInputProps) {
  return (
    <Field id={id} label={label} message={message} error={error} notice={notice} errorLive={errorLive}>
      {({ describedBy, invalid }) => (
        <div className="field__control">
          <input
            id={id}
            className={['field__input', className].filter(Boolean).join(' ')}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            {...input}
          />
          {trailing}
        </div>
      )}
    </Field>
  );
}
