// Once per run: sign in as the demo administrator and note the ids later requests use.
vars.set('setupError', '');
vars.set('samlBaseUrl', regionUrl + '/core');
if (!vars.get('accessToken')) {
  (async function () {
    const session = await signIn(pm.variables.get('adminEmail'));
    vars.set('accessToken', session.accessToken);
    vars.set('userId', JSON.parse(atob(session.accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).sub);
    const tenants = await call('GET', '/tenants', { token: session.accessToken });
    const tenantId = tenants.json.data[0].id;
    vars.set('tenantId', tenantId);
    const groups = await call('GET', '/groups?limit=100', { token: session.accessToken, tenant: tenantId });
    const biggest = groups.json.data.slice().sort(function (a, b) {
      return b.membersCount - a.membersCount;
    })[0];
    vars.set('groupId', biggest.id);
    vars.set('accountId', biggest.account.id);
    const cecGroups = await call('GET', '/external-communications/groups', {
      token: session.accessToken,
      tenant: tenantId,
    });
    vars.set('cecGroupId', cecGroups.json.data[0].id);
    const key = await call('POST', '/api-keys', {
      token: session.accessToken,
      tenant: tenantId,
      body: { name: 'Contract tests (SCIM)' },
    });
    vars.set('scimKey', key.json.key);
    vars.set('dispatchAt', new Date(Date.now() + 3600000).toISOString());
  })().catch(fail);
}
