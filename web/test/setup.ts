import { cleanup } from '@testing-library/react';
import { holdPassword } from '../src/login/sign-in-steps';

const realFetch = globalThis.fetch;

afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
  window.sessionStorage.clear();
  window.localStorage.clear();
  // The password a step holds in the page's memory (never in storage) goes with the page.
  holdPassword('');
  jest.useRealTimers();
  jest.restoreAllMocks();
});
