// Asks for a password reset link and reads it from the development outbox. (The sandbox's global CryptoJS is
// deprecated in favour of require('crypto-js'), which newman prints a warning about.)
(async function () {
  const email = pm.variables.get('resetEmail');
  const res = await call('POST', '/users/password-reset', {
    body: { emailHash: require('crypto-js').SHA256(email).toString() },
  });
  if (res.status !== 202) throw new Error('password reset request answered ' + res.status);
  const link = await fromOutbox(email, /userId=(\d+)&token=([A-Za-z0-9_%-]+)/);
  vars.set('resetUserId', link[1]);
  vars.set('resetToken', decodeURIComponent(link[2]));
})().catch(fail);
