// Helpers for Portman pre-request scripts (run by newman): calls to the region under test with the version header.
const coreUrl = pm.variables.get('baseUrl');
const regionUrl = coreUrl.replace(/\/core\/v1\/?$/, '');
const vars = pm.collectionVariables;
function call(method, url, options) {
  const o = options || {};
  const header = [{ key: 'cosafe-core-api-version', value: '1' }];
  if (o.token) header.push({ key: 'authorization', value: 'Bearer ' + o.token });
  if (o.tenant) header.push({ key: 'cosafe-tenant-id', value: String(o.tenant) });
  if (o.body !== undefined) header.push({ key: 'content-type', value: 'application/json' });
  const request = { url: url.startsWith('http') ? url : coreUrl + url, method: method, header: header };
  if (o.body !== undefined) request.body = { mode: 'raw', raw: JSON.stringify(o.body) };
  return new Promise(function (resolve, reject) {
    pm.sendRequest(request, function (error, response) {
      if (error) return reject(error);
      let json = null;
      try {
        json = response.json();
      } catch (e) {
        json = null;
      }
      resolve({ status: response.code, json: json });
    });
  });
}
function wait(ms) {
  return new Promise(function (resolve) {
    setTimeout(resolve, ms);
  });
}
async function signIn(email) {
  const res = await call('POST', '/sessions', {
    body: { grantType: 'password', email: email, password: pm.variables.get('demoPassword') },
  });
  if (res.status !== 201) throw new Error('sign-in of ' + email + ' answered ' + res.status);
  return res.json;
}
/** The newest message to `to` in the region's development outbox whose text matches `pattern`, polled for 5 s. */
async function fromOutbox(to, pattern) {
  for (let i = 0; i < 25; i++) {
    const res = await call('GET', regionUrl + '/dev/outbox?to=' + encodeURIComponent(to));
    const hit = ((res.json && res.json.data) || [])
      .map(function (m) {
        return pattern.exec((m.subject || '') + '\n' + m.body);
      })
      .find(Boolean);
    if (hit) return hit;
    await wait(200);
  }
  throw new Error('nothing matching ' + pattern + ' was sent to ' + to);
}
function fail(error) {
  console.error(String((error && error.stack) || error));
  vars.set('setupError', String(error));
}
