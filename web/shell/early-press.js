/*
 * Loaded (async) by the prerendered login screen before the app: a press of Log in (a click, or Enter in a field)
 * made while the app is still loading is recorded on <html data-early-press>, and the app submits the form once
 * it has taken it over (src/pages/login/login-form.tsx). Until then the prerendered button is a plain button
 * (type=button): the browser itself never submits the form, so the password never goes into an address.
 */
(function () {
  var root = document.documentElement;
  function waiting() {
    var button = document.getElementById('login-submit');
    return button !== null && button.getAttribute('type') === 'button';
  }
  function record() {
    if (waiting()) root.setAttribute('data-early-press', '');
  }
  document.addEventListener(
    'click',
    function (event) {
      var target = event.target;
      if (target instanceof Element && target.closest('#login-submit')) record();
    },
    true,
  );
  document.addEventListener(
    'keydown',
    function (event) {
      var target = event.target;
      if (
        event.key === 'Enter' &&
        target instanceof HTMLInputElement &&
        (target.id === 'email' || target.id === 'password')
      )
        record();
    },
    true,
  );
})();
