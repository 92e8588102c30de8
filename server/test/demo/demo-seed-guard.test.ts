// The demo data (published password) goes only into a database that holds nothing else: a development start that
// reaches a real database by mistake is refused in one line instead of adding accounts anyone can sign in to.
import { DemoSeedRefused, seedDemoData } from '../../src/demo/seed';
import { createTestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';

const demoAccounts = (ctx: Awaited<ReturnType<typeof createTestContext>>) =>
  ctx.services.db.selectFrom('users').select('email').where('email', 'like', '%@demo.test').execute();

test('an empty database is seeded, and the next start (demo data only) is seeded again without harm', async () => {
  const ctx = await createTestContext();
  try {
    expect(await seedDemoData(ctx.services)).toBe(true);
    expect(await seedDemoData(ctx.services)).toBe(false);
    expect((await demoAccounts(ctx)).length).toBeGreaterThan(0);
  } finally {
    await ctx.close();
  }
});

test.each([
  [
    'a tenant of its own',
    async (ctx: Awaited<ReturnType<typeof createTestContext>>) => void (await insertTenant(ctx.services, 'City Hall')),
  ],
  [
    'a person of its own',
    async (ctx: Awaited<ReturnType<typeof createTestContext>>) =>
      void (await insertUser(ctx.services, { email: 'mayor@city.example', tenants: [] })),
  ],
  [
    // Only demo.test and its subdomains are the demo's: each dot of the name is a dot.
    'a person at a look-alike domain',
    async (ctx: Awaited<ReturnType<typeof createTestContext>>) =>
      void (await insertUser(ctx.services, { email: 'mayor@city-demo-test', tenants: [] })),
  ],
])('a database with %s is refused in one line, and nothing is seeded', async (_what, addRealData) => {
  const ctx = await createTestContext();
  try {
    await addRealData(ctx);
    const refusal = await seedDemoData(ctx.services).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DemoSeedRefused);
    expect((refusal as Error).message).toMatch(
      /^Demo data not seeded: the database holds data that is not demo data \(\d+ tenant\(s\), \d+ user\(s\)\)\. Start with SEED_DEMO_DATA=false, or use an empty database\.$/,
    );
    expect(await demoAccounts(ctx)).toEqual([]);
  } finally {
    await ctx.close();
  }
});

test('a demo database where someone was added later is refused too (the demo password must not sit beside it)', async () => {
  const ctx = await createTestContext();
  try {
    await seedDemoData(ctx.services);
    await insertUser(ctx.services, { email: 'head@school.example', tenants: [] });
    await expect(seedDemoData(ctx.services)).rejects.toThrow(/\(0 tenant\(s\), 1 user\(s\)\)/);
  } finally {
    await ctx.close();
  }
});
