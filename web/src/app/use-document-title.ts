import { useEffect } from 'react';

/** Keeps the browser tab title in step with the page heading (and the language). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
