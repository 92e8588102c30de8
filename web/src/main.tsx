import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppTree } from './app/app-tree';
import i18n, { languageOnlyTheBrowserKnows, startI18n } from './i18n';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');

// The host served the build's prerendered login screen or account shell (web/shell/prerender.ts) in the language on
// <html lang>: the app hydrates it in that language. Every other page is index.html's shell, which the app replaces.
const screen = root.dataset.prerendered;
const prerendered = !!screen && window.location.pathname === `/${screen}`;
// Read before i18next starts (it remembers the language it starts in).
const browserLanguage = prerendered ? languageOnlyTheBrowserKnows() : null;

/** After hydration: the language the browser's storage asks for, when the host could not know it. */
const followBrowserLanguage = () => {
  if (browserLanguage && browserLanguage !== i18n.language) void i18n.changeLanguage(browserLanguage);
};

// The texts first (their file was preloaded with the page), then one render: until then the page shows what came.
void startI18n().finally(() => {
  const app = (
    <AppTree
      i18n={i18n}
      router={(routes) => <BrowserRouter>{routes}</BrowserRouter>}
      onReady={prerendered ? followBrowserLanguage : undefined}
    />
  );
  if (prerendered) hydrateRoot(root, app);
  else createRoot(root).render(app);
});
