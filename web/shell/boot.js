/*
 * Runs inline in index.html's <head>, before the stylesheet and the app's script are even requested (an inline
 * script after a stylesheet would wait for it): picks the language in the order of spec section 9 (query string
 * `lng`, cookie `i18next`, localStorage and sessionStorage `i18nextLng`, the browser's languages, the html tag),
 * sets <html lang> and the title, preloads the language's translations at once, and writes the loading text into
 * the shell as soon as the page is parsed (the app reads the language back from <html lang>). Its SHA-256 is allowed
 * by the Content-Security-Policy (web/deploy); the texts come from the data block before it, so changing them does
 * not change the hash.
 */
(function () {
  var html = document.documentElement;
  var texts = JSON.parse(document.getElementById('shell-texts').textContent);
  var candidates = [];
  var add = function (value) {
    if (value) candidates.push(String(value));
  };
  try {
    add(new URLSearchParams(location.search).get('lng'));
  } catch (e) {}
  try {
    var cookie = /(?:^|;\s*)i18next=([^;]*)/.exec(document.cookie);
    if (cookie) add(decodeURIComponent(cookie[1]));
  } catch (e) {}
  try {
    add(localStorage.getItem('i18nextLng'));
  } catch (e) {}
  try {
    add(sessionStorage.getItem('i18nextLng'));
  } catch (e) {}
  var browser = navigator.languages || [navigator.language];
  for (var i = 0; i < browser.length; i++) add(browser[i]);
  add(html.getAttribute('lang'));
  var language = 'en';
  for (var j = 0; j < candidates.length; j++) {
    var base = candidates[j].toLowerCase().split(/[-_]/)[0];
    if (Object.prototype.hasOwnProperty.call(texts, base)) {
      language = base;
      break;
    }
  }
  html.lang = language;
  document.title = texts[language].title;
  var preload = document.createElement('link');
  preload.setAttribute('rel', 'preload');
  preload.setAttribute('as', 'fetch');
  preload.setAttribute('crossorigin', 'anonymous');
  preload.setAttribute('href', '/locales/' + language + '.json');
  document.head.appendChild(preload);
  var showLoading = function () {
    var status = document.getElementById('boot-status');
    if (status && !status.textContent) status.textContent = texts[language].loading;
  };
  // 'interactive' comes as soon as the page is parsed, before the stylesheet lets anything paint.
  if (document.readyState === 'loading') document.addEventListener('readystatechange', showLoading, { once: true });
  else showLoading();
})();
