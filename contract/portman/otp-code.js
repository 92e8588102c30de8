// The code createSessionChallenge sent, read from the development outbox.
fromOutbox(pm.variables.get('otpEmail'), /\b(\d{6})\b/)
  .then(function (m) {
    vars.set('otpCode', m[1]);
  })
  .catch(fail);
