// The login screen as the build prerenders it (web/shell/prerender.ts loads this module with Vite's server-side
// runner): the same tree the browser hydrates (app/app-tree.tsx), at /login, in one language, with nothing the
// query or the browser's storage would add (app/hydration.ts).
import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { StaticRouter } from 'react-router';
import { AppTree } from './app/app-tree';
import { LANGUAGE_CODES, type LanguageCode } from './i18n/languages';

/** The markup of #root for /login in `language`, with that language's translations. */
export async function renderLoginScreen(
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
    <AppTree i18n={i18n} router={(routes) => <StaticRouter location="/login">{routes}</StaticRouter>} />,
  );
}
