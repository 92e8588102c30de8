// Recorded provisioning sequences of Microsoft Entra ID and Okta (fixtures/*.json: their documented request
// shapes), replayed step by step against a tenant: each answer has the recorded status, contains what the client
// reads from it, and is SCIM (application/scim+json). RFC 7644 sections 3.3 (create), 3.4.2 (query), 3.4.1
// (retrieve), 3.5.1 (PUT), 3.5.2 (PATCH) and 3.6 (delete).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from '../support/context';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import { scim, scimKey } from '../support/scim-client';

interface Step {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  status: number;
  capture?: Record<string, string>;
  expect?: unknown;
  absent?: string[];
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createSsoTestContext();
});
afterAll(() => ctx.close());

const fill = (value: unknown, vars: Record<string, string>): unknown =>
  JSON.parse(JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => vars[name] ?? `{{${name}}}`));

describe.each(['entra-id', 'okta'])('%s provisioning sequence', (client) => {
  const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures', `${client}.json`), 'utf8')) as { steps: Step[] };

  test('replays with the recorded statuses and answers', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const http = scim(ctx, await scimKey(ctx, tenant));
    const vars: Record<string, string> = { email: `${client}.user@${tenant.domain}` };
    for (const step of fixture.steps) {
      const path = fill(step.path, vars) as string;
      const body = step.body === undefined ? undefined : (fill(step.body, vars) as { Operations?: object[] });
      const res =
        step.method === 'GET'
          ? await http.get(path)
          : step.method === 'DELETE'
            ? await http.delete(path)
            : step.method === 'PATCH'
              ? await http.patch(path, body!.Operations!)
              : await http[step.method === 'POST' ? 'post' : 'put'](path, body!);
      expect({ step: step.name, status: res.status }).toEqual({ step: step.name, status: step.status });
      if (res.status !== 204) expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      if (step.expect) expect(res.body).toMatchObject(fill(step.expect, vars) as object);
      for (const attribute of step.absent ?? []) expect(res.body).not.toHaveProperty(attribute);
      for (const [name, from] of Object.entries(step.capture ?? {})) vars[name] = String(res.body[from]);
    }
  });
});
