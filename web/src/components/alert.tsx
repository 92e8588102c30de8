import { type ReactNode, useEffect, useRef } from 'react';
import { Icon } from './icon';

/**
 * A message about the whole form or page, announced when it appears. With `focus`, it also takes the focus when
 * it appears (an error after the user pressed a button), so keyboard users continue from it.
 */
interface AlertProps {
  tone?: 'error' | 'warning';
  focus?: boolean;
  id?: string;
  children: ReactNode;
}

export function Alert({ tone = 'error', focus = false, id, children }: AlertProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  return (
    <div ref={box} id={id} className={`alert alert--${tone}`} role="alert" tabIndex={-1}>
      <Icon name={tone === 'error' ? 'alert-circle' : 'alert-triangle'} />
      <div>{children}</div>
    </div>
  );
}
