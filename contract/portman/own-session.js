// A session of its own, so refreshing or ending it does not disturb the other requests.
signIn(pm.variables.get('adminEmail'))
  .then(function (s) {
    vars.set('ownSessionId', s.id);
    vars.set('ownAccessToken', s.accessToken);
    vars.set('ownRefreshToken', s.refreshToken);
  })
  .catch(fail);
