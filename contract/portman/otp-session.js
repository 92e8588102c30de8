// A password session of a user with one-time codes by email (the factor stays unverified until the next request).
signIn(pm.variables.get('otpEmail'))
  .then(function (s) {
    vars.set('otpSessionId', s.id);
    vars.set('otpAccessToken', s.accessToken);
  })
  .catch(fail);
