import type { LanguageCode } from '../i18n/languages';

/*
 * The product's public hostnames live here and nowhere else. They are placeholders until the real domains are
 * decided: change this file (or set VITE_REDIRECT_ALLOW_LIST at build time) to point the app at other hosts.
 */
export const PRODUCT_DOMAIN = 'example-product.com';

const platforms = ['admin', 'app', 'academy'] as const;
const environments = { production: '', stage: 'stage.', dev: 'dev.' } as const;

/** The login pages of the admin panel, the main app and the academy, in production, stage and dev. */
export const PLATFORM_LOGIN_PAGES: readonly string[] = Object.values(environments).flatMap((env) =>
  platforms.map((platform) => `https://${platform}.${env}${PRODUCT_DOMAIN}/login`),
);

/** Stand-ins for the three platforms on a developer machine (Vite dev server only). */
export const DEVELOPMENT_LOGIN_PAGES: readonly string[] = [
  'http://localhost:5174/login',
  'http://localhost:5175/login',
  'http://localhost:5176/login',
  'http://localhost:4100/admin/login',
  'http://localhost:4100/app/login',
  'http://localhost:4100/academy/login',
];

/** Where the bare root `/` of the development server starts a sign-in: the demo calling platform (`npm start`). */
export const DEVELOPMENT_START_PAGE = 'http://localhost:4100/app/login';

/** Regional API hosts (without /core/v1) of a production build; VITE_API_URL_* overrides them. */
export const PRODUCTION_API_URLS = {
  'eu-north-1': `https://api.eu-north-1.${PRODUCT_DOMAIN}`,
  'sa-east-1': `https://api.sa-east-1.${PRODUCT_DOMAIN}`,
} as const;

/** Regional API hosts of the development servers (`npm start`). */
export const DEVELOPMENT_API_URLS = {
  'eu-north-1': 'http://localhost:4000',
  'sa-east-1': 'http://localhost:4001',
} as const;

interface FooterLinks {
  support: string;
  privacyPolicy: string;
}

const site = `https://www.${PRODUCT_DOMAIN}`;

export const FOOTER_LINKS: Record<LanguageCode, FooterLinks> = {
  sv: { support: `${site}/sv/support`, privacyPolicy: `${site}/sv/integritetspolicy` },
  en: { support: `${site}/en/support`, privacyPolicy: `${site}/en/privacy-policy` },
  nl: { support: `${site}/nl/ondersteuning`, privacyPolicy: `${site}/nl/privacybeleid` },
  fi: { support: `${site}/fi/tuki`, privacyPolicy: `${site}/fi/tietosuojakaytanto` },
  pt: { support: `${site}/pt/suporte`, privacyPolicy: `${site}/pt/politica-de-privacidade` },
  es: { support: `${site}/es/soporte`, privacyPolicy: `${site}/es/politica-de-privacidad` },
};
