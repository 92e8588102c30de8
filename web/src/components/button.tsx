import type { ComponentProps, ReactNode } from 'react';
import { Icon, type IconName } from './icon';

export type ButtonVariant = 'primary' | 'secondary' | 'tertiary';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  icon?: IconName;
  /** Shows a spinner and marks the button busy; it does nothing meanwhile. */
  busy?: boolean;
  children?: ReactNode;
}

/**
 * A button that is busy or `disabled` stays focusable (`aria-disabled`) and ignores presses, so focus never falls
 * back to the page when a keyboard user's button stops working for a moment, and a submit button does not submit.
 */
export function Button({
  variant = 'primary',
  icon,
  busy = false,
  type = 'button',
  className,
  disabled,
  onClick,
  children,
  ...rest
}: ButtonProps) {
  const classes = ['button', `button--${variant}`, className].filter(Boolean).join(' ');
  const unavailable = Boolean(disabled || busy);
  return (
    <button
      type={type}
      className={classes}
      aria-disabled={unavailable || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        if (unavailable) event.preventDefault();
        else onClick?.(event);
      }}
      {...rest}
    >
      {busy ? <span className="button__spinner" aria-hidden="true" /> : icon && <Icon name={icon} />}
      {children}
    </button>
  );
}
