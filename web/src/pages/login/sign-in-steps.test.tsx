import { screen, waitFor, within } from '@testing-library/react';
import { config } from '../../config/config';
import { storeEmail, storeRedirectUrl } from '../../login/sign-in-storage';
import { readStepRegions, readSsoTargets, storeSsoTargets, storeStepRegions } from '../../login/sign-in-steps';
import { BRAZIL, EUROPE, fakeApi, probeReply, sessionBody } from '../../test/fake-api';
import { REDIRECT, loginPath, renderApp } from '../../test/render-app';

const PASSWORD = 'a password never kept';
const bothRegions = [
  { region: 'eu-north-1' as const, baseUrl: EUROPE },
  { region: 'sa-east-1' as const, baseUrl: BRAZIL },
];

/** A tab that reached the region step of maria's sign-in, then reloaded: storage kept, the page's memory gone. */
function reloadedAtRegionStep() {
  storeRedirectUrl(REDIRECT);
  storeEmail('maria@demo.test');
  storeStepRegions(bothRegions);
}

describe('the steps of a sign-in, each at its own address (issue 46 §7)', () => {
  test('several regions: the region step opens at /login/region, and nothing kept for it holds the password', async () => {
    fakeApi((call) =>
      call.url.pathname.startsWith('/core/v1/probes/')
        ? probeReply(call.url.origin === EUROPE ? 'eu-north-1' : 'sa-east-1', true, call.url.origin)
        : { status: 201, body: sessionBody() },
    );
    const { user, location } = renderApp(loginPath());
    await user.type(screen.getByLabelText('Email'), 'maria@demo.test');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('heading', { name: 'Select region' }, { timeout: 5000 });
    expect(location()).toBe('/login/region');
    expect(JSON.stringify({ ...window.sessionStorage, ...window.localStorage })).not.toContain(PASSWORD);
    // The password is at hand within the page: the step does not ask for it.
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  test('/login/region after a reload offers the kept regions and asks for the password again, which signs in', async () => {
    reloadedAtRegionStep();
    const { calls } = fakeApi(() => ({ status: 201, body: sessionBody({ email: 'verified' }) }));
    const { user } = renderApp('/login/region');
    const select = await screen.findByRole('combobox', { name: 'Region' }, { timeout: 5000 });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select region', 'Europe', 'Brazil']);
    await user.selectOptions(select, 'sa-east-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Type in your password')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].url.href).toBe(`${BRAZIL}/core/v1/sessions`);
    expect(calls[0].body).toMatchObject({ email: 'maria@demo.test', password: PASSWORD });
  });

  test('/login/region with nothing kept for it (another tab, a finished sign-in) goes to the login form', async () => {
    storeRedirectUrl(REDIRECT);
    fakeApi(() => ({ status: 500, body: {} }));
    const { location } = renderApp('/login/region');
    await screen.findByRole('heading', { name: 'Log in to the product' }, { timeout: 5000 });
    expect(location()).toBe('/login');
  });

  test('a region kept for a step whose API host is not one this build signs in at is left out', () => {
    storeStepRegions([...bothRegions, { region: 'se-sto', baseUrl: 'https://elsewhere.example' }]);
    expect(readStepRegions(config.regions)).toEqual(bothRegions);
    storeSsoTargets([
      { ...bothRegions[0], kind: 'oidc' },
      { ...bothRegions[1], kind: 'oidc', baseUrl: 'x' },
    ]);
    expect(readSsoTargets(config.regions)).toEqual([{ ...bothRegions[0], kind: 'oidc' }]);
  });

  test('the SSO step is /login/sso/email, and a reload finds the email in place', async () => {
    const first = renderApp(loginPath());
    await first.user.type(screen.getByLabelText('Email'), 'anna@sso.demo.test');
    await first.user.click(screen.getByRole('button', { name: 'Log in with SSO' }));
    await screen.findByLabelText('Work email');
    expect(first.location()).toBe('/login/sso/email');
    first.unmount();
    renderApp('/login/sso/email');
    expect(((await screen.findByLabelText('Work email')) as HTMLInputElement).value).toBe('anna@sso.demo.test');
  });
});
