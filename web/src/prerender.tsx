// The login screen and the account page's shell as the build prerenders them (web/shell/prerender.ts loads this
// module with Vite's server-side runner): the same tree the browser hydrates (app/app-tree.tsx), at /login or
// /account, in one language, with nothing the query or the browser's storage would add (app/hydration.ts).
import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { StaticRouter } from 'react-router';
import { AppTree } from './app/app-tree';
import { loadAccountPage } from './app/page-loaders';
import { LANGUAGE_CODES, type LanguageCode } from './i18n/languages';

/** The markup of #root for /login in `language`, with that language's translations. */
export const renderLoginScreen = (language: LanguageCode, translations: Record<string, unknown>) =>
  renderScreen('/login', language, translations);

/**
 * The shell of /account in `language`: the layout (logo, language picker, footer) around the loading line; the
 * account page itself loads on its own chunk and renders there once the app runs (its boundary is the client's).
 */
export async function renderAccountShell(language: LanguageCode, translations: Record<string, unknown>) {
  // The page is lazy: the first render only starts loading it (a server render cannot wait), and a boundary left
  // unfinished would be the client's to render (React reports that as an error). Rendered again once it is in.
  await renderScreen('/account', language, translations);
  await loadAccountPage();
  await new Promise((settled) => setTimeout(settled, 0));
  return renderScreen('/account', language, translations);
}

async function renderScreen(
  path: '/login' | '/account',
  language: LanguageCode,
  translations: Record<string, unknown>,
): Promise<string> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    supportedLngs: [...LANGUAGE_CODES],
    load: 'languageOnly',
    fallbackLng: false,
    resources: { [language]: { translation: translations } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return renderToString(
    <AppTree i18n={i18n} router={(routes) => <StaticRouter location={path}>{routes}</StaticRouter>} />,
  );
}
