import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { AppRoutes } from '../app/app-routes';
import { createTestI18n } from './i18n';

export const REDIRECT = 'http://localhost:5174/login';
export const loginPath = (query = '') => `/login?redirectUrl=${encodeURIComponent(REDIRECT)}${query}`;

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location" hidden>{`${location.pathname}${location.search}`}</output>;
}

/** Renders the whole app at `path` in memory, with the test i18n instance and a user-event session. */
export function renderApp(path: string, { language = 'en', fakeTimers = false } = {}) {
  const i18n = createTestI18n(language);
  const user = userEvent.setup(fakeTimers ? { advanceTimers: jest.advanceTimersByTime } : {});
  // StrictMode as in development: effects run twice, so "asks once" tests also cover that.
  const view = render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <LocationProbe />
        </MemoryRouter>
      </I18nextProvider>
    </StrictMode>,
  );
  return { ...view, user, i18n, location: () => screen.getByTestId('location').textContent };
}
