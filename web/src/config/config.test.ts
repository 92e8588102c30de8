import { createConfig } from './config';
import { DEVELOPMENT_LOGIN_PAGES, PLATFORM_LOGIN_PAGES } from './platforms';

describe('createConfig', () => {
  test('when nothing is set in development, uses Sweden/Europe on port 4000 and Brazil on port 4001', () => {
    expect(createConfig({ DEV: true }).regions).toEqual([
      { region: 'eu-north-1', baseUrl: 'http://localhost:4000' },
      { region: 'sa-east-1', baseUrl: 'http://localhost:4001' },
    ]);
  });

  test('when API URLs are set, uses them without trailing slashes and adds se-sto only when given', () => {
    const { regions } = createConfig({
      DEV: false,
      VITE_API_URL_EU_NORTH_1: 'https://eu.api.test/',
      VITE_API_URL_SE_STO: 'https://se.api.test',
      VITE_API_URL_SA_EAST_1: 'https://br.api.test',
    });
    expect(regions).toEqual([
      { region: 'eu-north-1', baseUrl: 'https://eu.api.test' },
      { region: 'se-sto', baseUrl: 'https://se.api.test' },
      { region: 'sa-east-1', baseUrl: 'https://br.api.test' },
    ]);
  });

  test('when an API URL is not http(s), throws', () => {
    expect(() => createConfig({ DEV: true, VITE_API_URL_EU_NORTH_1: 'ftp://eu.api.test' })).toThrow();
  });

  test('when built for production, allows exactly the admin, app and academy login pages in dev, stage and production', () => {
    const { redirectAllowList } = createConfig({ DEV: false });
    expect(redirectAllowList).toEqual(PLATFORM_LOGIN_PAGES);
    expect([...redirectAllowList].sort()).toEqual(
      ['admin', 'app', 'academy']
        .flatMap((platform) =>
          ['', 'stage.', 'dev.'].map((env) => `https://${platform}.${env}example-product.com/login`),
        )
        .sort(),
    );
  });

  test('when run in development, also allows the localhost stand-ins', () => {
    const { redirectAllowList } = createConfig({ DEV: true });
    expect(redirectAllowList).toEqual([...PLATFORM_LOGIN_PAGES, ...DEVELOPMENT_LOGIN_PAGES]);
    expect(redirectAllowList).toEqual(
      expect.arrayContaining([
        'http://localhost:5174/login',
        'http://localhost:5175/login',
        'http://localhost:5176/login',
      ]),
    );
  });

  test('when VITE_REDIRECT_ALLOW_LIST is set, it replaces the list', () => {
    const { redirectAllowList } = createConfig({
      DEV: true,
      VITE_REDIRECT_ALLOW_LIST: 'https://a.test/login, https://b.test/sign-in\nhttp://localhost:9000/login',
    });
    expect(redirectAllowList).toEqual([
      'https://a.test/login',
      'https://b.test/sign-in',
      'http://localhost:9000/login',
    ]);
  });

  test('when VITE_REDIRECT_ALLOW_LIST holds an entry with a query, throws at start-up', () => {
    expect(() => createConfig({ DEV: false, VITE_REDIRECT_ALLOW_LIST: 'https://a.test/login?x=1' })).toThrow(
      /allow-list/,
    );
  });

  test('in development, the bare root starts a sign-in for the demo calling platform; VITE_DEV_START_REDIRECT_URL changes it', () => {
    expect(createConfig({ DEV: true }).devStartRedirectUrl).toBe('http://localhost:4100/app/login');
    expect(
      createConfig({ DEV: true, VITE_DEV_START_REDIRECT_URL: 'http://localhost:4100/admin/login' }).devStartRedirectUrl,
    ).toBe('http://localhost:4100/admin/login');
  });

  test('when built for production, the bare root has no start page, even if one is configured', () => {
    expect(createConfig({ DEV: false }).devStartRedirectUrl).toBeNull();
    expect(
      createConfig({ DEV: false, VITE_DEV_START_REDIRECT_URL: 'http://localhost:4100/app/login' }).devStartRedirectUrl,
    ).toBeNull();
  });

  test('when the development start page is not on the allow-list, throws at start-up', () => {
    expect(() => createConfig({ DEV: true, VITE_DEV_START_REDIRECT_URL: 'https://evil.example/login' })).toThrow(
      /allow-list/,
    );
  });
});
