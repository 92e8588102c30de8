import type { ComponentProps } from 'react';
import { Field } from './field';
import { Icon } from './icon';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends Omit<ComponentProps<'select'>, 'id'> {
  id: string;
  label: string;
  options: readonly SelectOption[];
  /** Text of an empty first option that asks for a choice. */
  placeholder?: string;
  message?: string;
  error?: string;
}

export function Select({ id, label, options, placeholder, message, error, className, ...select }: SelectProps) {
  return (
    <Field id={id} label={label} message={message} error={error}>
      {({ describedBy, invalid }) => (
        <div className="field__control field__control--select">
          <select
            id={id}
            className={['field__input', className].filter(Boolean).join(' ')}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            {...select}
          >
            {placeholder !== undefined && <option value="">{placeholder}</option>}
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <Icon name="chevron-down" className="icon field__chevron" />
        </div>
      )}
    </Field>
  );
}
