import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * The back arrow of a sign-in step: the history's own Back when the app put an entry before this one (so the arrow
 * and the browser's Back agree, and Forward returns to the step), else the login form in place of the step (a step
 * opened in a new tab, say).
 */
export function useStepBack(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const index = (window.history.state as { idx?: unknown } | null)?.idx;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate('/login', { replace: true });
  }, [navigate]);
}
