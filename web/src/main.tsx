import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/app-routes';
import { ErrorBoundary } from './app/error-boundary';
import i18n, { startI18n } from './i18n';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

// The texts first (their file was preloaded with the page), then one render: until then index.html's shell shows.
void startI18n().finally(() =>
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ErrorBoundary>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ErrorBoundary>
      </I18nextProvider>
    </StrictMode>,
  ),
);
