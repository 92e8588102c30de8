import type { ReactNode } from 'react';
import { Icon } from './icon';

/** A message about the whole form or page, announced when it appears. */
export function Alert({ tone = 'error', children }: { tone?: 'error' | 'warning'; children: ReactNode }) {
  return (
    <div className={`alert alert--${tone}`} role="alert">
      <Icon name={tone === 'error' ? 'alert-circle' : 'alert-triangle'} />
      <div>{children}</div>
    </div>
  );
}
