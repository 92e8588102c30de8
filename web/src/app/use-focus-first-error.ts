import { useEffect, useRef } from 'react';

/**
 * After a submit attempt that ends with errors, moves focus to the first field (in form order) that has one,
 * so keyboard and screen-reader users land on what needs fixing.
 */
export function useFocusFirstError(
  submitCount: number,
  isSubmitting: boolean,
  fieldIdsWithErrors: readonly string[],
): void {
  const handled = useRef(0);
  const first = fieldIdsWithErrors[0];
  useEffect(() => {
    if (isSubmitting || submitCount === handled.current || !first) return;
    handled.current = submitCount;
    document.getElementById(first)?.focus();
  }, [submitCount, isSubmitting, first]);
}
