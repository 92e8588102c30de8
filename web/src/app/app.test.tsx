import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { followHtmlLang } from '../i18n/html-lang';
import { browserLocation } from '../login/browser-location';
import { createTestI18n } from '../test/i18n';
import { REDIRECT, loginPath, renderApp } from '../test/render-app';
import { ErrorBoundary } from './error-boundary';

describe('layout', () => {
  test('the logo links to /login', () => {
    renderApp(loginPath());
    expect(screen.getByRole('link', { name: 'Go to the login page' }).getAttribute('href')).toBe('/login');
  });

  test('the language picker offers Svenska, English (UK), Nederlands, Suomi, Português and Español', () => {
    renderApp(loginPath());
    const picker = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect(Array.from(picker.options, (option) => option.textContent)).toEqual([
      'Svenska',
      'English (UK)',
      'Nederlands',
      'Suomi',
      'Português',
      'Español',
    ]);
    expect(picker.value).toBe('en');
  });

  test('moving through the languages with the arrow keys switches nothing; Enter switches to the one shown', async () => {
    renderApp(loginPath());
    const picker = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    fireEvent.change(picker, { target: { value: 'nl' } });
    fireEvent.keyDown(picker, { key: 'ArrowDown' });
    fireEvent.change(picker, { target: { value: 'fi' } });
    expect(picker.value).toBe('fi');
    expect(screen.getByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    fireEvent.keyDown(picker, { key: 'Enter' });
    expect(await screen.findByRole('heading', { name: 'Kirjaudu tuotteeseen' })).toBeTruthy();
  });

  test('when Svenska is picked, the page turns Swedish and <html lang> follows', async () => {
    const { user, i18n } = renderApp(loginPath());
    followHtmlLang(i18n);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Svenska');
    expect(await screen.findByRole('heading', { name: 'Logga in i produkten' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('sv');
    expect(document.title).toBe('Logga in i produkten');
  });

  test.each([
    [
      'en',
      'Support',
      'https://www.example-product.com/en/support',
      'Privacy policy',
      'https://www.example-product.com/en/privacy-policy',
    ],
    [
      'sv',
      'Kundsupport',
      'https://www.example-product.com/sv/support',
      'Integritetspolicy',
      'https://www.example-product.com/sv/integritetspolicy',
    ],
    [
      'pt',
      'Suporte',
      'https://www.example-product.com/pt/suporte',
      'Política de privacidade',
      'https://www.example-product.com/pt/politica-de-privacidade',
    ],
  ])(
    'when the language is %s, the footer links to that language’s support and privacy policy',
    (language, support, supportUrl, privacy, privacyUrl) => {
      renderApp(loginPath(), { language });
      expect(screen.getByRole('link', { name: new RegExp(`^${support}`) }).getAttribute('href')).toBe(supportUrl);
      expect(screen.getByRole('link', { name: new RegExp(`^${privacy}`) }).getAttribute('href')).toBe(privacyUrl);
    },
  );

  test('in development, the bare root / starts a sign-in for the demo calling platform', async () => {
    const { location } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe(`/login?redirectUrl=${encodeURIComponent('http://localhost:4100/app/login')}`);
  });

  test('when the root carries a query, it goes to /login with that query, not to the development start page', async () => {
    const { location } = renderApp(`/?redirectUrl=${encodeURIComponent(REDIRECT)}`);
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe(`/login?redirectUrl=${encodeURIComponent(REDIRECT)}`);
  });

  test('when the path is unknown, goes to /login keeping the query', async () => {
    const { location } = renderApp(`/somewhere/else?redirectUrl=${encodeURIComponent(REDIRECT)}`);
    expect(await screen.findByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect(location()).toBe(`/login?redirectUrl=${encodeURIComponent(REDIRECT)}`);
  });
});

describe('/invalid-redirect', () => {
  test('warns that the login redirect failed and says to start again from the platform', async () => {
    renderApp('/invalid-redirect', { language: 'nl' });
    expect(
      await screen.findByRole('heading', {
        name: 'Doorsturen na het inloggen is mislukt. Probeer opnieuw in te loggen',
      }),
    ).toBeTruthy();
    expect(
      screen.getByText('Ga terug naar het platform waar je vandaan kwam en start het inloggen daar opnieuw.'),
    ).toBeTruthy();
  });
});

describe('error page', () => {
  function Broken(): never {
    throw new Error('render failed');
  }

  function renderBroken() {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    return render(
      <I18nextProvider i18n={createTestI18n()}>
        <MemoryRouter>
          <ErrorBoundary>
            <Broken />
          </ErrorBoundary>
        </MemoryRouter>
      </I18nextProvider>,
    );
  }

  test('when a page throws, shows Oops! Something went wrong with a link home', () => {
    renderBroken();
    expect(screen.getByRole('heading', { name: 'Oops! Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/login');
  });

  test('the refresh button reloads the page', async () => {
    const reload = jest.spyOn(browserLocation, 'reload').mockImplementation(() => undefined);
    renderBroken();
    screen.getByRole('button', { name: 'Refresh the page' }).click();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
