// Several instances of a region write to one log: each request line says which instance answered it.
import request from 'supertest';
import { createTestContext } from '../support/context';

const v1 = { 'cosafe-core-api-version': '1' };

const requestLines = async (env: Record<string, string>) => {
  const ctx = await createTestContext({ env });
  try {
    await request(ctx.app).get('/core/v1/tenants').set(v1);
    return ctx.logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request completed');
  } finally {
    await ctx.close();
  }
};

test('a request line carries INSTANCE_ID', async () => {
  const lines = await requestLines({ INSTANCE_ID: 'eu-north-1-b' });
  expect(lines).toHaveLength(1);
  expect(lines[0].instance).toBe('eu-north-1-b');
});

test('without INSTANCE_ID, the host and process id', async () => {
  const [line] = await requestLines({});
  expect(line.instance).toMatch(new RegExp(`^[^:]+:${process.pid}$`));
});
