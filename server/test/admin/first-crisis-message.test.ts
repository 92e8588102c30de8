// The README's "First crisis message on a fresh install", run as it is written there: its CSV file and its
// operator commands, in order, on a fresh database (PostgreSQL when TEST_DATABASE_URL is set, else PGlite), then
// the invited administrator sets a password, signs in and sends, and every parent gets the message.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { adminRunner } from './admin-fixtures';

const readme = readFileSync(resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('**First crisis message on a fresh install.**'));
const block = (lang: string) => {
  const found = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!found) throw new Error(`the README walkthrough has no ${lang} block`);
  return found[1];
};

/** Shell words of one command line: double and single quotes, no expansions (the walkthrough uses none). */
function words(line: string): string[] {
  const out: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(pattern)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

let ctx: TestContext;
let dir: string;
beforeAll(async () => {
  ctx = await createTestContext({ env: { SIGN_IN_APP_URL: 'https://login.example.com' } });
  dir = mkdtempSync(join(tmpdir(), 'first-crisis-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ctx.close();
});

test('the walkthrough in the README sets up a fresh install, and the first crisis message reaches every parent', async () => {
  expect(ctx.database.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  const csv = join(dir, 'parents.csv');
  writeFileSync(csv, block('csv'));
  const commands = block('sh')
    .split('\n')
    .filter((line) => line.trim() !== '');
  expect(commands.length).toBeGreaterThanOrEqual(8);
  const admin = adminRunner(ctx);
  const outputs: string[] = [];
  for (const line of commands) {
    const [npm, run, tool, dashes, ...argv] = words(line);
    expect([npm, run, tool, dashes]).toEqual(['npm', 'run', 'admin', '--']);
    const result = await admin(argv.map((arg) => (arg === 'parents.csv' ? csv : arg)));
    expect({ line, ...result }).toMatchObject({ line, code: 0, err: '' });
    outputs.push(result.out);
  }
  // The ids the README uses are the ones a fresh install prints.
  expect(outputs.join('')).toContain('Tenant 1 created: Demo School\n');
  expect(outputs.join('')).toContain('External-communication group 1 created: Parents\n');
  expect(outputs.join('')).toContain(
    '3 recipient(s) in the file: 3 would be added, 0 would be updated, 0 unchanged; 3 would be new in group "Parents".',
  );
  expect(outputs.join('')).toContain(
    '3 recipient(s) in the file: 3 were added, 0 were updated, 0 unchanged; 3 were new in group "Parents".',
  );

  // The administrator's invitation, their password, their sign-in.
  const [invitation] = await ctx.services.db
    .selectFrom('outbox')
    .select('body')
    .where('recipient', '=', 'head@school.example')
    .execute();
  const link = new URL(/https:\/\/login\.example\.com\/set-password\?\S+/.exec(invitation.body)![0]);
  const password = 'Crisis-Ready-2026!';
  const set = await request(ctx.app)
    .post(`/core/v1/users/${link.searchParams.get('userId')}/password-set`)
    .set(v1)
    .send({ token: link.searchParams.get('token'), password });
  expect(set.status).toBe(204);
  const session = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: 'head@school.example', password });
  expect(session.status).toBe(201);
  const as = (req: request.Test) =>
    req.set(v1).set('cosafe-tenant-id', '1').set('authorization', `Bearer ${session.body.accessToken}`);

  // What the admin panel shows, then the message.
  expect((await as(request(ctx.app).get('/core/v1/external-communications/groups'))).body.data).toEqual([
    { id: 1, name: 'Parents', memberCount: 3 },
  ]);
  expect((await as(request(ctx.app).get('/core/v1/external-communications/templates'))).body.data).toEqual([
    expect.objectContaining({ name: 'School closed' }),
  ]);
  const sent = await as(request(ctx.app).post('/core/v1/external-communications/messages')).send({
    externalCommunicationGroupIds: [1],
    text: 'The school is closed today. Keep your children at home.',
    channel: { isEmail: true, isSms: true },
  });
  expect(sent.status).toBe(201);
  await ctx.services.jobs.runDueJobs();
  const delivered = await ctx.services.db
    .selectFrom('outbox')
    .select(['channel', 'recipient'])
    .where('recipient', '<>', 'head@school.example')
    .orderBy('channel')
    .orderBy('recipient')
    .execute();
  expect(delivered).toEqual([
    { channel: 'email', recipient: 'eva.ek@example.com' },
    { channel: 'email', recipient: 'lena.lund@example.com' },
    { channel: 'sms', recipient: '+46701111111' },
    { channel: 'sms', recipient: '+46701111112' },
  ]);
});

test('an invited administrator may not send until granted cec.maySend, and may once granted', async () => {
  const admin = adminRunner(ctx);
  const run = await admin([
    'user',
    'invite',
    '--tenant',
    '1',
    '--email',
    'deputy@school.example',
    '--name',
    'D',
    '--admin',
  ]);
  expect(run.code).toBe(0);
  const [invitation] = await ctx.services.db
    .selectFrom('outbox')
    .select('body')
    .where('recipient', '=', 'deputy@school.example')
    .execute();
  const link = new URL(/https:\/\/login\.example\.com\/set-password\?\S+/.exec(invitation.body)![0]);
  const password = 'Deputy-Ready-2026!';
  await request(ctx.app)
    .post(`/core/v1/users/${link.searchParams.get('userId')}/password-set`)
    .set(v1)
    .send({ token: link.searchParams.get('token'), password })
    .expect(204);
  const session = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .send({ grantType: 'password', email: 'deputy@school.example', password })
    .expect(201);
  const send = () =>
    request(ctx.app)
      .post('/core/v1/external-communications/messages')
      .set(v1)
      .set('cosafe-tenant-id', '1')
      .set('authorization', `Bearer ${session.body.accessToken}`)
      .send({ externalCommunicationGroupIds: [1], text: 'Drill at ten.', channel: { isEmail: true, isSms: false } });
  const refused = await send();
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('INSUFFICIENT_PRIVILEGES');
  expect(
    (await admin(['permission', 'grant', '--tenant', '1', '--user', 'deputy@school.example', 'cec.maySend'])).code,
  ).toBe(0);
  expect((await send()).status).toBe(201);
});
