// Plain JavaScript: preact/compat declares its types with `export =`, which TypeScript cannot re-export with `export *`.
// The production build's `react` and `react-dom`: Preact's compatible runtime, a fifth of react-dom's weight.
// React Router imports `useOptimistic` for its data-router `RouterProvider`, which this app does not use (it renders
// `BrowserRouter`), so the name only has to exist; calling it would be a build mistake and says so.
export * from 'preact/compat';
export { default } from 'preact/compat';

export function useOptimistic() {
  throw new Error(
    'useOptimistic is not available in the Preact build (the app uses BrowserRouter, not RouterProvider)',
  );
}
