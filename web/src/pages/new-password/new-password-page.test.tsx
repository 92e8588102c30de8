import { screen, waitFor } from '@testing-library/react';
import {
  BRAZIL,
  EUROPE,
  type FakeCall,
  type Reply,
  type Route,
  apiError,
  deferred,
  fakeApi,
} from '../../test/fake-api';
import { REDIRECT, renderApp } from '../../test/render-app';

const TOKEN = 'Xq7vR2mN9kLp4sT8wY1zB6cD3fG5hJ0a';
const GOOD = 'Demo-Password-2!';
const resetPath = `/reset-password?userId=7&token=${TOKEN}`;
const setPath = `/set-password?userId=7&token=${TOKEN}`;

const state = (value: string): Reply => ({ status: 200, body: { state: value } });

/** The token lives in `home` with `tokenState`; elsewhere it is unknown. POSTs answer `save`. */
function api(tokenState = 'valid', save: Route = () => ({ status: 204 }), home = EUROPE): Route {
  return (call) => {
    if (call.method === 'POST') return save(call);
    return call.url.origin === home ? state(tokenState) : state('invalid');
  };
}

const posts = (calls: FakeCall[]) => calls.filter((call) => call.method === 'POST');

async function fillIn(
  user: ReturnType<typeof renderApp>['user'],
  password: string,
  confirmation = password,
  submit = 'Change password',
) {
  const input = await screen.findByLabelText('New password');
  if (password) await user.type(input, password);
  if (confirmation) await user.type(screen.getByLabelText('Repeat the new password'), confirmation);
  await user.click(screen.getByRole('button', { name: submit }));
}

describe('/reset-password', () => {
  test('checks the token, then shows the new-password form with the policy hint', async () => {
    const answer = deferred<Reply>();
    const { calls } = fakeApi(() => answer.promise);
    renderApp(resetPath);
    expect(await screen.findByRole('heading', { name: 'Checking your link…' })).toBeTruthy();
    answer.resolve(state('valid'));
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    expect(
      screen.getByText(
        /^10 to 256 characters, .* Anything else counts as special, such as ! \? # or a space, and letters like é or å\.$/,
      ),
    ).toBeTruthy();
    const input = screen.getByLabelText('New password');
    expect(input.getAttribute('autocomplete')).toBe('new-password');
    expect(input.getAttribute('type')).toBe('password');
    expect(screen.getByLabelText('Repeat the new password').getAttribute('autocomplete')).toBe('new-password');
    expect(calls).toHaveLength(1);
    expect(calls[0].url.href).toBe(`${EUROPE}/core/v1/users/7/password-reset`);
    expect(calls[0].headers.get('cosafe-password-token')).toBe(TOKEN);
    expect(document.title).toBe('Choose a new password');
  });

  test('a link that names Brazil sends the token to Brazil only: the check and the new password', async () => {
    const { calls } = fakeApi(api('valid', () => ({ status: 204 }), BRAZIL));
    const { user } = renderApp(`${resetPath}&region=sa-east-1`);
    await fillIn(user, GOOD);
    expect(await screen.findByRole('heading', { name: 'Your password has been changed' })).toBeTruthy();
    expect(calls.map((call) => `${call.method} ${call.url.href}`)).toEqual([
      `GET ${BRAZIL}/core/v1/users/7/password-reset`,
      `POST ${BRAZIL}/core/v1/users/7/password-reset`,
    ]);
    expect(calls[0].headers.get('cosafe-password-token')).toBe(TOKEN);
  });

  test('a link without a region (emailed before links named theirs) asks Europe first, then Brazil, and saves the password in Brazil', async () => {
    const { calls } = fakeApi(api('valid', () => ({ status: 204 }), BRAZIL));
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    expect(await screen.findByRole('heading', { name: 'Your password has been changed' })).toBeTruthy();
    expect(calls.map((call) => `${call.method} ${call.url.origin}${call.url.pathname}`)).toEqual([
      `GET ${EUROPE}/core/v1/users/7/password-reset`,
      `GET ${BRAZIL}/core/v1/users/7/password-reset`,
      `POST ${BRAZIL}/core/v1/users/7/password-reset`,
    ]);
    expect(posts(calls)[0].body).toEqual({ token: TOKEN, newPassword: GOOD });
    expect(posts(calls)[0].headers.get('cosafe-core-api-version')).toBe('1');
  });

  test('after the change, says to log in with the new password; without a sign-in in this tab there is no login link', async () => {
    fakeApi(api());
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    expect(
      await screen.findByText('From now on, log in with your new password. Go back to the platform and log in there.'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Go to login' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your password has been changed' })),
    );
  });

  test('after the change, a tab that came through /login gets a link back to it, and the text does not send her back to the platform beside it', async () => {
    window.sessionStorage.setItem('signIn.redirectUrl', REDIRECT);
    fakeApi(api());
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    expect((await screen.findByRole('link', { name: 'Go to login' })).getAttribute('href')).toBe('/login');
    expect(screen.getByText('From now on, log in with your new password.')).toBeTruthy();
    expect(screen.queryByText(/Go back to the platform/)).toBeNull();
  });

  test.each([
    ['Aa1!aaaaa', 'Password must be at least 10 characters'],
    ['DEMO-PASSWORD-1!', 'Password must contain a lowercase letter'],
    ['demo-password-1!', 'Password must contain an uppercase letter'],
    ['Demo-Password-!', 'Password must contain a number'],
    ['DemoPassword12', 'Password must contain a special character'],
  ])('when the password is %j, shows %s on the field and sends nothing', async (password, message) => {
    const { calls } = fakeApi(api());
    const { user } = renderApp(resetPath);
    await fillIn(user, password);
    const input = screen.getByLabelText('New password');
    await waitFor(() => expect(document.getElementById('new-password-error')?.textContent).toBe(message));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('new-password-error new-password-message');
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(posts(calls)).toHaveLength(0);
  });

  test('when the password breaks several rules, shows every broken rule at once', async () => {
    fakeApi(api());
    const { user } = renderApp(resetPath);
    await fillIn(user, 'abc');
    await waitFor(() =>
      expect(document.getElementById('new-password-error')?.textContent).toBe(
        [
          'Password must be at least 10 characters',
          'Password must contain an uppercase letter',
          'Password must contain a number',
          'Password must contain a special character',
        ].join('\n'),
      ),
    );
  });

  test('when the fields are empty or differ, asks for them', async () => {
    const { calls } = fakeApi(api());
    const { user } = renderApp(resetPath);
    await fillIn(user, '', '');
    expect(await screen.findByText('Type in a new password')).toBeTruthy();
    expect(screen.getByText('Type in the password again')).toBeTruthy();
    await user.type(screen.getByLabelText('New password'), GOOD);
    await user.type(screen.getByLabelText('Repeat the new password'), 'Demo-Password-3!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  test('when the server reports broken rules, shows them on the password field until it changes', async () => {
    fakeApi(
      api('valid', () =>
        apiError(400, 'BAD_REQUEST', {
          issues: [
            {
              where: 'body',
              path: '/newPassword',
              message: 'Password must contain a number',
              rule: 'PASSWORD_MISSING_DIGIT',
            },
            {
              where: 'body',
              path: '/newPassword',
              message: 'Password must be at least 10 characters',
              rule: 'PASSWORD_TOO_SHORT',
            },
          ],
        }),
      ),
    );
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    await waitFor(() =>
      expect(document.getElementById('new-password-error')?.textContent).toBe(
        'Password must be at least 10 characters\nPassword must contain a number',
      ),
    );
    await user.type(screen.getByLabelText('New password'), 'x');
    await waitFor(() => expect(document.getElementById('new-password-error')).toBeNull());
  });

  test.each([
    [apiError(400, 'USER_PASSWORD_SET_TOKEN_INVALID'), 'This link is not valid'],
    [apiError(410, 'USER_PASSWORD_SET_TOKEN_EXPIRED'), 'This link has expired'],
  ])('when saving answers %j, shows %s', async (answer, title) => {
    fakeApi(api('valid', () => answer));
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });

  test('when saving answers 429, says how long to wait and keeps the form', async () => {
    fakeApi(
      api('valid', () =>
        apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 300_000).toISOString() }),
      ),
    );
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait 5 minutes and try again.',
    );
    expect(screen.getByLabelText('New password')).toBeTruthy();
  });

  test('when saving fails otherwise, asks to try again', async () => {
    fakeApi(api('valid', () => apiError(500, 'INTERNAL_SERVER_ERROR')));
    const { user } = renderApp(resetPath);
    await fillIn(user, GOOD);
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Please try again.');
  });

  test.each([
    ['expired', 'This link has expired', 'Password reset links are valid for 30 minutes. Ask for a new link.'],
    [
      'used',
      'This link has already been used',
      'Each link works only once. If you still need to change your password, ask for a new link.',
    ],
    [
      'invalid',
      'This link is not valid',
      'Check that you opened the whole link from the email, or ask for a new link.',
    ],
  ])('when the token is %s, says so with a link to ask for a new one', async (tokenState, title, text) => {
    fakeApi(api(tokenState));
    renderApp(resetPath);
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  test.each([
    ['/reset-password', 'no query'],
    ['/reset-password?userId=7', 'no token'],
    [`/reset-password?userId=abc&token=${TOKEN}`, 'a malformed userId'],
  ])('when the link is %s (%s), says it is not valid without asking any region', async (path) => {
    const { calls } = fakeApi(api());
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  test('when the check is rate limited, says how long to wait and offers to try again', async () => {
    let checks = 0;
    fakeApi(() => {
      checks += 1;
      return checks <= 2
        ? apiError(429, 'TOO_MANY_REQUESTS', { unavailableUntil: new Date(Date.now() + 30_000).toISOString() })
        : state('valid');
    });
    const { user } = renderApp(resetPath);
    expect(await screen.findByRole('heading', { name: 'The link could not be checked' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(
      /^Too many attempts\. Please wait (29|30) seconds and try again\.$/,
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
  });

  test('checks the token once, even though development runs effects twice', async () => {
    const answer = deferred<Reply>();
    const { calls } = fakeApi(() => answer.promise);
    renderApp(resetPath);
    await waitFor(() => expect(calls).toHaveLength(1));
    answer.resolve(state('valid'));
    await screen.findByRole('heading', { name: 'Choose a new password' });
    expect(calls).toHaveLength(1);
  });
});

describe('/set-password', () => {
  test('checks the invitation token at /password-set and saves { token, password }', async () => {
    const { calls } = fakeApi(api());
    const { user } = renderApp(setPath);
    expect(await screen.findByRole('heading', { name: 'Choose your password' })).toBeTruthy();
    expect(screen.getByText('Choose the password you will use to log in to the product.')).toBeTruthy();
    await fillIn(user, GOOD, GOOD, 'Save password');
    expect(await screen.findByRole('heading', { name: 'Your password is saved' })).toBeTruthy();
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([
      'GET /core/v1/users/7/password-set',
      'POST /core/v1/users/7/password-set',
    ]);
    expect(posts(calls)[0].body).toEqual({ token: TOKEN, password: GOOD });
  });

  test('when the password is already set, says so and offers to reset it', async () => {
    fakeApi(api('used'));
    renderApp(setPath);
    expect(await screen.findByRole('heading', { name: 'Your password is already set' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/forgot-password');
  });

  test('when saving answers 409 USER_PASSWORD_ALREADY_SET, shows the already-set state', async () => {
    fakeApi(api('valid', () => apiError(409, 'USER_PASSWORD_ALREADY_SET')));
    const { user } = renderApp(setPath);
    await fillIn(user, GOOD, GOOD, 'Save password');
    expect(await screen.findByRole('heading', { name: 'Your password is already set' })).toBeTruthy();
  });

  test.each([
    [
      'expired',
      'This link has expired',
      'Invitation links are valid for 30 days. Ask your administrator to send a new invitation.',
    ],
    [
      'invalid',
      'This link is not valid',
      'Check that you opened the whole link from the invitation email. If it still does not work, ask your administrator to send a new invitation.',
    ],
  ])(
    'when the invitation is %s, sends the user to the administrator, not to a reset',
    async (tokenState, title, text) => {
      fakeApi(api(tokenState));
      renderApp(setPath);
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
      expect(screen.getByText(text)).toBeTruthy();
      expect(screen.queryByRole('link', { name: /new link|Reset/ })).toBeNull();
    },
  );

  test('in Portuguese, the form and the policy messages read in Portuguese', async () => {
    fakeApi(api());
    const { user } = renderApp(setPath, { language: 'pt' });
    expect(await screen.findByRole('heading', { name: 'Escolha sua senha' })).toBeTruthy();
    await user.type(screen.getByLabelText('Nova senha'), 'senha-fraca');
    await user.click(screen.getByRole('button', { name: 'Salvar senha' }));
    await waitFor(() =>
      expect(document.getElementById('new-password-error')?.textContent).toBe(
        'A senha deve conter uma letra maiúscula\nA senha deve conter um número',
      ),
    );
  });
});
