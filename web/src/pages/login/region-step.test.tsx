import { screen, waitFor, within } from '@testing-library/react';
import { browserLocation } from '../../login/browser-location';
import { BRAZIL, EUROPE, type Route, apiError, fakeApi, probeReply, sessionBody } from '../../test/fake-api';
import { REDIRECT, loginPath, renderApp } from '../../test/render-app';

/** Both regions know the credentials; sessions answer with `session`. */
function bothRegions(session: Route = () => ({ status: 201, body: sessionBody() }), europeCode = 'eu-north-1'): Route {
  return (call) => {
    if (call.url.pathname.startsWith('/core/v1/probes/')) {
      return call.url.origin === EUROPE ? probeReply(europeCode, true) : probeReply('sa-east-1', true, BRAZIL);
    }
    return session(call);
  };
}

async function reachRegionStep(options: { language?: string } = {}) {
  const app = renderApp(loginPath(), options);
  await app.user.type(screen.getByLabelText(options.language === 'sv' ? 'E-post' : 'Email'), 'anna@demo.test');
  await app.user.type(screen.getByLabelText(options.language === 'sv' ? 'Lösenord' : 'Password'), 'secret');
  await app.user.click(screen.getByRole('button', { name: options.language === 'sv' ? 'Logga in' : 'Log in' }));
  return app;
}

const sessionCalls = (calls: { url: URL }[]) => calls.filter((call) => call.url.pathname === '/core/v1/sessions');

describe('region step', () => {
  test('when the credentials are valid in both regions, asks for a region with Europe and Brazil to choose from', async () => {
    const { calls } = fakeApi(bothRegions());
    await reachRegionStep();
    expect(await screen.findByRole('heading', { name: 'Select region' })).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'Region' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select region', 'Europe', 'Brazil']);
    expect(sessionCalls(calls)).toHaveLength(0);
  });

  test('when the Sweden/Europe host answers se-sto, labels it Sweden', async () => {
    fakeApi(bothRegions(undefined, 'se-sto'));
    await reachRegionStep();
    const select = await screen.findByRole('combobox', { name: 'Region' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select region', 'Sweden', 'Brazil']);
  });

  test('when no region is chosen, shows Please select region and creates no session', async () => {
    const { calls } = fakeApi(bothRegions());
    const { user } = await reachRegionStep();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please select region')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Region' })));
    expect(sessionCalls(calls)).toHaveLength(0);
  });

  test('when Brazil is chosen, creates the session in Brazil and redirects with region sa-east-1', async () => {
    const { calls } = fakeApi(bothRegions());
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = await reachRegionStep();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Region' }), 'Brazil');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    expect(sessionCalls(calls).map((call) => call.url.origin)).toEqual([BRAZIL]);
    const url = new URL(leave.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(url.searchParams.get('region')).toBe('sa-east-1');
    expect(url.searchParams.get('sessionId')).toBe(sessionBody().id);
  });

  test('when Europe is chosen, creates the session in Europe', async () => {
    const { calls } = fakeApi(bothRegions());
    const leave = jest.spyOn(browserLocation, 'replace').mockImplementation(() => undefined);
    const { user } = await reachRegionStep();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Region' }), 'Europe');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(leave).toHaveBeenCalled());
    expect(sessionCalls(calls).map((call) => call.url.origin)).toEqual([EUROPE]);
    expect(new URL(leave.mock.calls[0][0]).searchParams.get('region')).toBe('eu-north-1');
  });

  test('when session creation fails in the chosen region, shows Wrong login on the region step', async () => {
    fakeApi(bothRegions(() => apiError(403, 'FORBIDDEN')));
    const { user } = await reachRegionStep();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Region' }), 'Brazil');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong login');
    expect(screen.getByRole('heading', { name: 'Select region' })).toBeTruthy();
  });

  test('the back arrow returns to the login form with the email kept', async () => {
    fakeApi(bothRegions());
    const { user } = await reachRegionStep();
    await user.click(await screen.findByRole('button', { name: 'Back to login' }));
    expect(screen.getByRole('heading', { name: 'Log in to the product' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('anna@demo.test');
  });

  test('when shown in Swedish, the regions are Europa and Brasilien', async () => {
    fakeApi(bothRegions());
    await reachRegionStep({ language: 'sv' });
    const select = await screen.findByRole('combobox', { name: 'Region' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Välj region', 'Europa', 'Brasilien']);
  });
});
