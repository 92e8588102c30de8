import { cleanup } from '@testing-library/react';

const realFetch = globalThis.fetch;

afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
  window.sessionStorage.clear();
  window.localStorage.clear();
  jest.useRealTimers();
  jest.restoreAllMocks();
});
