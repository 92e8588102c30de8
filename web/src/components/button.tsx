import type { ComponentProps, ReactNode } from 'react';
import { Icon, type IconName } from './icon';

export type ButtonVariant = 'primary' | 'secondary' | 'tertiary';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  icon?: IconName;
  /** Shows a spinner and marks the button busy; the button is disabled meanwhile. */
  busy?: boolean;
  children?: ReactNode;
}

export function Button({ variant = 'primary', icon, busy = false, type = 'button', className, disabled, children, ...rest }: ButtonProps) {
  const classes = ['button', `button--${variant}`, className].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy ? <span className="button__spinner" aria-hidden="true" /> : icon && <Icon name={icon} />}
      {children}
    </button>
  );
}
