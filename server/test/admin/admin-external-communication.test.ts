// npm run admin -- cec-group | recipient | template: a tenant's external communication set up without SQL.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { adminRunner, expectRefused } from './admin-fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
let tenant: number;
let other: number;
const dir = mkdtempSync(join(tmpdir(), 'admin-cec-'));
beforeAll(async () => {
  ctx = await createTestContext();
  admin = adminRunner(ctx);
  tenant = await insertTenant(ctx.services, 'Demo School');
  other = await insertTenant(ctx.services, 'Other School');
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ctx.close();
});

const t = (id = tenant) => ['--tenant', String(id)];
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const createGroup = async (name: string, id = tenant) => {
  const run = await admin(['cec-group', 'create', ...t(id), '--name', name]);
  expect(run).toMatchObject({ code: 0, err: '' });
  return Number(/^External-communication group (\d+) created: /.exec(run.out)![1]);
};
const contacts = (id = tenant) =>
  ctx.services.db
    .selectFrom('cec_contacts')
    .select(['name', 'title', 'email', 'phone', 'language'])
    .where('tenant_id', '=', id)
    .orderBy('id')
    .execute();
const membersOf = async (groupId: number) =>
  (
    await ctx.services.db
      .selectFrom('cec_group_members as m')
      .innerJoin('cec_contacts as c', 'c.id', 'm.contact_id')
      .select('c.name')
      .where('m.group_id', '=', groupId)
      .orderBy('c.name')
      .execute()
  ).map((r) => r.name);

describe('cec-group', () => {
  test('create, list, rename and delete', async () => {
    const id = await createGroup('Parents');
    expect((await admin(['cec-group', 'list', ...t()])).out).toContain(`${id}\tParents\t0 recipient(s)\n`);
    const renamed = await admin(['cec-group', 'rename', String(id), ...t(), '--name', 'Guardians']);
    expect(renamed.out).toBe(`Group ${id} renamed from "Parents" to "Guardians".\n`);
    expect((await admin(['cec-group', 'delete', String(id), ...t()])).out).toBe(`Group ${id} (Guardians) deleted.\n`);
    expect((await admin(['cec-group', 'list', ...t()])).out).not.toContain('Guardians');
  });

  test('a second group of the same name (any case) is refused', async () => {
    const id = await createGroup('Press');
    expectRefused(
      await admin(['cec-group', 'create', ...t(), '--name', 'PRESS']),
      `Tenant ${tenant} already has a group named "Press" (id ${id}).`,
    );
  });

  test("another tenant's group is not found, and is left alone", async () => {
    const theirs = await createGroup('Their staff', other);
    for (const args of [
      ['rename', String(theirs), ...t(), '--name', 'Mine now'],
      ['delete', String(theirs), ...t()],
    ])
      expectRefused(
        await admin(['cec-group', ...args]),
        `Tenant ${tenant} has no external-communication group ${theirs}.`,
      );
    expect((await admin(['cec-group', 'list', ...t(other)])).out).toContain(`${theirs}\tTheir staff\t`);
  });

  test('an unknown tenant, a bad id or an empty name is one line', async () => {
    expectRefused(await admin(['cec-group', 'list', '--tenant', '999999']), 'There is no tenant 999999.');
    expectRefused(await admin(['cec-group', 'delete', 'x', ...t()]), 'Must be a whole number above 0.');
    expectRefused(await admin(['cec-group', 'create', ...t(), '--name', ' ']), 'Must be 1 to 255 characters.');
  });
});

describe('recipient import', () => {
  const good = [
    'Name,Title,Email,Phone,Language',
    'Eva Ek,Head teacher,eva@example.com,+46 70 111 11 11,sv',
    '"Berg, Olof","Caretaker, ""night""",,+46701111112,',
    'Lena Lund,,LENA@example.com,,',
    '',
  ].join('\r\n');

  test('imports every row into the group, then importing the same file again changes nothing', async () => {
    const group = await createGroup('Staff');
    const path = file('staff.csv', good);
    const first = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path]);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toBe(
      '3 recipient(s) in the file: 3 were added, 0 were updated, 0 unchanged; 3 were new in group "Staff".\n',
    );
    expect(await contacts()).toEqual([
      { name: 'Eva Ek', title: 'Head teacher', email: 'eva@example.com', phone: '+46701111111', language: 'sv' },
      { name: 'Berg, Olof', title: 'Caretaker, "night"', email: null, phone: '+46701111112', language: null },
      { name: 'Lena Lund', title: null, email: 'LENA@example.com', phone: null, language: null },
    ]);
    const again = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path]);
    expect(again.out).toBe(
      '3 recipient(s) in the file: 0 were added, 0 were updated, 3 unchanged; 0 were new in group "Staff".\n',
    );
    expect(await contacts()).toHaveLength(3);
  });

  test('a recipient is the same by email (any case) or phone: updated, and added to another group', async () => {
    const group = await createGroup('Night shift');
    const path = file(
      'update.csv',
      'name,email,phone\nLena Lund-Berg,lena@EXAMPLE.com,+46701111113\nOlof Berg,,+46 70 111 11 12\n',
    );
    const run = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path]);
    expect(run.out).toBe(
      '2 recipient(s) in the file: 0 were added, 2 were updated, 0 unchanged; 2 were new in group "Night shift".\n',
    );
    expect(await contacts()).toContainEqual({
      name: 'Lena Lund-Berg',
      title: null,
      email: 'LENA@example.com',
      phone: '+46701111113',
      language: null,
    });
    expect(await contacts()).toHaveLength(3);
    expect(await membersOf(group)).toEqual(['Lena Lund-Berg', 'Olof Berg']);
  });

  test('a dry run says what would change and changes nothing', async () => {
    const group = await createGroup('Board');
    const before = await contacts();
    const path = file('board.csv', 'name,email\nNew Person,new@example.com\nEva Ek,eva@example.com\n');
    const run = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path, '--dry-run']);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toBe(
      'Dry run, nothing changed. 2 recipient(s) in the file: 1 would be added, 0 would be updated, 1 unchanged; 2 would be new in group "Board".\n',
    );
    expect(await contacts()).toEqual(before);
    expect(await membersOf(group)).toEqual([]);
  });

  test('every bad row is reported by its line, and nothing is imported, not even the good rows', async () => {
    const group = await createGroup('Volunteers');
    const before = await contacts();
    const path = file(
      'bad.csv',
      [
        'name,title,email,phone',
        'Good Row,,good@example.com,',
        ',,nameless@example.com,',
        'No Way,,,',
        'Bad Mail,,not-an-email,',
        'Bad Phone,,,0701234567',
        '"Two',
        'Lines",,twice@example.com,',
        'Again,,GOOD@example.com,',
        'Short row',
      ].join('\n'),
    );
    for (const dryRun of [[], ['--dry-run']]) {
      const run = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path, ...dryRun]);
      expectRefused(run, `${path}: 7 bad row(s); nothing was imported. Fix them and run again:`);
      expect(run.err.split('\n').slice(1, -1)).toEqual([
        '  line 3: name is empty',
        '  line 4: neither email nor phone is given',
        '  line 5: email "not-an-email" is not an email address',
        '  line 6: phone "0701234567" is not an international number (+ and the country code, then the number)',
        '  line 7: name holds a control character or line break',
        '  line 9: email GOOD@example.com is on line 2 too',
        '  line 10: 1 field(s) where the header has 4; neither email nor phone is given',
      ]);
    }
    expect(await contacts()).toEqual(before);
    expect(await membersOf(group)).toEqual([]);
  });

  test('an address the mailer would read as another, or as none, is refused by its line', async () => {
    const group = await createGroup('Addresses');
    const before = await contacts();
    const path = file(
      'addresses.csv',
      [
        'name,email',
        'Good,good.one@example.com',
        // Two entries to the mailer: a mailbox "a" and b@c.d, someone else.
        'Comma,"a,b@c.d"',
        'Bracket,x@y.z>',
        'Dots,a@b..c',
        'Display,Eva <eva.display@example.com>',
        'Spaced,a b@c.d',
        'No domain,a@b',
      ].join('\n'),
    );
    const run = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path]);
    expectRefused(run, `${path}: 6 bad row(s); nothing was imported.`);
    expect(run.err.split('\n').slice(1, -1)).toEqual([
      '  line 3: email "a,b@c.d" is not an email address',
      '  line 4: email "x@y.z>" is not an email address',
      '  line 5: email "a@b..c" is not an email address',
      '  line 6: email "Eva <eva.display@example.com>" is not an email address',
      '  line 7: email "a b@c.d" is not an email address',
      '  line 8: email "a@b" is not an email address',
    ]);
    expect(await contacts()).toEqual(before);
  });

  test('impossible numbers and country codes are refused by their line; a trunk (0) is dropped', async () => {
    // In the other tenant: this one has +46 70 111 11 11 already (Eva Ek).
    const group = await createGroup('Numbers', other);
    const before = await contacts(other);
    const bad = file(
      'numbers.csv',
      [
        'name,phone',
        'Trunk,+46 (0)70 111 11 21',
        'No such country,+999 123 456 789',
        'Too short,+46 70 1',
        'Not Swedish,+46 12 345',
        'Letters,+46 70 111 11 2x',
        'Extension,+46 8 123 456 78 ext. 5',
      ].join('\n'),
    );
    const run = await admin(['recipient', 'import', ...t(other), '--group', String(group), '--file', bad]);
    expectRefused(run, `${bad}: 5 bad row(s); nothing was imported.`);
    expect(run.err.split('\n').slice(1, -1)).toEqual([
      '  line 3: phone "+999 123 456 789" is not a phone number (no such country code, or too short)',
      '  line 4: phone "+46 70 1" is not a valid number in SE (+46)',
      '  line 5: phone "+46 12 345" is not a valid number in SE (+46)',
      '  line 6: phone "+46 70 111 11 2x" is not an international number (+ and the country code, then the number)',
      '  line 7: phone "+46 8 123 456 78 ext. 5" is not an international number (+ and the country code, then the number)',
    ]);
    expect(await contacts(other)).toEqual(before);

    const good = file('trunk.csv', 'name,phone\nTrunk,+46 (0)70 111 11 11\nLondon,+44 (0)20 7946 0958\n');
    expect((await admin(['recipient', 'import', ...t(other), '--group', String(group), '--file', good])).code).toBe(0);
    expect(await membersOf(group)).toEqual(['London', 'Trunk']);
    const stored = await contacts(other);
    expect(stored).toContainEqual(expect.objectContaining({ name: 'Trunk', phone: '+46701111111' }));
    expect(stored).toContainEqual(expect.objectContaining({ name: 'London', phone: '+442079460958' }));
    expect(stored.filter((c) => c.phone?.startsWith('+460'))).toEqual([]);
  });

  test('a file that is not UTF-8 is refused with how to save it; --encoding windows-1252 reads it', async () => {
    const group = await createGroup('Encodings');
    const before = await contacts();
    // What Excel's plain "CSV" writes on a Western European machine: Windows-1252, "Åsa Åberg" as C5 73 61 20 C5 ...
    const latin1 = Buffer.from('name,email\nÅsa Åberg,asa@example.com\nJosé Núñez,jose@example.com\n', 'latin1');
    const path = join(dir, 'excel.csv');
    writeFileSync(path, latin1);
    for (const [source, stdin] of [
      [path, ''],
      ['-', latin1],
    ] as const) {
      const run = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', source], stdin);
      expectRefused(run, `${source}: nothing was imported. line 2: the file is not UTF-8`);
      expect(run.err).toContain('Save it as "CSV UTF-8", or give --encoding windows-1252');
    }
    expect(await contacts()).toEqual(before);

    const run = await admin([
      'recipient',
      'import',
      ...t(),
      '--group',
      String(group),
      '--file',
      path,
      '--encoding',
      'latin1',
    ]);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(await membersOf(group)).toEqual(['José Núñez', 'Åsa Åberg']);
    expectRefused(
      await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path, '--encoding', 'ebcdic']),
      'Must be utf-8 or windows-1252',
    );
  });

  test('a UTF-8 file with a byte order mark is read as UTF-8, whatever encoding is given', async () => {
    const group = await createGroup('Byte order mark');
    const path = join(dir, 'bom.csv');
    writeFileSync(path, Buffer.from('\uFEFFname,email\nÖrjan Öst,orjan@example.com\n', 'utf8'));
    for (const encoding of [[], ['--encoding', 'windows-1252']]) {
      const run = await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path, ...encoding]);
      expect(run).toMatchObject({ code: 0, err: '' });
    }
    expect(await membersOf(group)).toEqual(['Örjan Öst']);
  });

  test('a name already garbled by an earlier conversion ("\uFFFDsa") is refused by its line', async () => {
    const group = await createGroup('Garbled');
    const path = file('garbled.csv', 'name,email\n\uFFFDsa \uFFFDberg,asa.garbled@example.com\n');
    expectRefused(
      await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path]),
      'line 2: name holds "\uFFFD", a character lost in an earlier conversion; type it again',
    );
  });

  test('a bad header, an empty file, an unclosed quote or a missing file is refused', async () => {
    const group = await createGroup('Empty');
    const cases: [string, string][] = [
      [
        'name,mail\nA,a@example.com\n',
        'line 1: unknown column(s) "mail"; the columns are name, title, email, phone, language',
      ],
      ['title,email\nA,a@example.com\n', 'line 1: the column "name" is missing'],
      ['name,title\nA,B\n', 'line 1: one of the columns "email" and "phone" is needed'],
      ['', 'line 1: the file is empty'],
      ['name,email\n', 'line 1: no recipients below the header'],
      ['name,email\n"A,a@example.com\n', 'line 2: a quoted field is not closed'],
    ];
    for (const [text, message] of cases) {
      const run = await admin([
        'recipient',
        'import',
        ...t(),
        '--group',
        String(group),
        '--file',
        file('case.csv', text),
      ]);
      expectRefused(run, message);
    }
    expectRefused(
      await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', join(dir, 'missing.csv')]),
      `Cannot read the file ${join(dir, 'missing.csv')}: ENOENT`,
    );
  });

  test('a row that is two existing recipients at once (email of one, phone of another) is refused', async () => {
    const group = await createGroup('Mixed');
    const path = file('mixed.csv', 'name,email,phone\nMix,eva@example.com,+46701111112\n');
    expectRefused(
      await admin(['recipient', 'import', ...t(), '--group', String(group), '--file', path]),
      /line 2: its email and phone belong to two different recipients/,
    );
  });

  test("into another tenant's group: refused, and their group is untouched", async () => {
    const theirs = await createGroup('Their parents', other);
    const path = file('sneaky.csv', 'name,email\nSneaky,sneaky@example.com\n');
    expectRefused(
      await admin(['recipient', 'import', ...t(), '--group', String(theirs), '--file', path]),
      `Tenant ${tenant} has no external-communication group ${theirs}.`,
    );
    expect(await membersOf(theirs)).toEqual([]);
  });

  test('reads standard input with --file -', async () => {
    const group = await createGroup('Stdin');
    const run = await admin(
      ['recipient', 'import', ...t(), '--group', String(group), '--file', '-'],
      'name,phone\nStina,+46701111119\n',
    );
    expect(run.out).toMatch(/^1 recipient\(s\) in the file: 1 were added/);
  });
});

describe('recipient add / list / remove', () => {
  test('adds one, lists it with its groups, removes it from a group, then deletes it', async () => {
    const a = await createGroup('Add A');
    const b = await createGroup('Add B');
    const added = await admin([
      'recipient',
      'add',
      ...t(),
      '--group',
      String(a),
      '--name',
      'Per Holm',
      '--email',
      'per@example.com',
      '--phone',
      '+46 70 222 22 22',
    ]);
    const id = Number(/^Recipient (\d+) \(Per Holm\) added; in group "Add A"\.\n$/.exec(added.out)![1]);
    const again = await admin([
      'recipient',
      'add',
      ...t(),
      '--group',
      String(b),
      '--name',
      'Per Holm',
      '--email',
      'PER@example.com',
    ]);
    expect(again.out).toBe(`Recipient ${id} (Per Holm) unchanged; in group "Add B".\n`);
    expect((await admin(['recipient', 'list', ...t(), '--group', String(b)])).out).toBe(
      `${id}\tPer Holm\t\tper@example.com\t+46702222222\tgroups ${a},${b}\n`,
    );
    expect((await admin(['recipient', 'remove', String(id), ...t(), '--group', String(a)])).out).toBe(
      `Recipient ${id} (Per Holm) removed from group ${a} (Add A).\n`,
    );
    expectRefused(
      await admin(['recipient', 'remove', String(id), ...t(), '--group', String(a)]),
      `Recipient ${id} (Per Holm) is not in group ${a} (Add A).`,
    );
    expect((await admin(['recipient', 'remove', String(id), ...t()])).out).toBe(
      `Recipient ${id} (Per Holm) deleted from every group.\n`,
    );
    expect(await membersOf(b)).toEqual([]);
  });

  test('without email or phone, or with a bad one, it is one line and nothing is added', async () => {
    const group = await createGroup('Add C');
    expectRefused(
      await admin(['recipient', 'add', ...t(), '--group', String(group), '--name', 'X']),
      'Give --email, --phone or both.',
    );
    expectRefused(
      await admin(['recipient', 'add', ...t(), '--group', String(group), '--name', 'X', '--phone', '123']),
      '"123" is not an international number',
    );
    expect(await membersOf(group)).toEqual([]);
  });

  test("one recipient is checked by the same rules as an import: the mailer's address, a valid number in E.164", async () => {
    const group = await createGroup('Add E');
    const add = (...args: string[]) =>
      admin(['recipient', 'add', ...t(), '--group', String(group), '--name', 'One', ...args]);
    expectRefused(await add('--email', 'a,b@c.d'), 'Must be one email address.');
    expectRefused(await add('--email', 'a@b..c'), 'Must be one email address.');
    expectRefused(await add('--phone', '+999 123 456 789'), 'is not a phone number');
    expect(await membersOf(group)).toEqual([]);
    const added = await add('--phone', '+46 (0)70 333 33 33');
    expect(added).toMatchObject({ code: 0, err: '' });
    expect(await contacts()).toContainEqual(expect.objectContaining({ name: 'One', phone: '+46703333333' }));
  });

  test("another tenant's recipient cannot be removed", async () => {
    const theirs = await createGroup('Their D', other);
    const added = await admin([
      'recipient',
      'add',
      ...t(other),
      '--group',
      String(theirs),
      '--name',
      'Theirs',
      '--email',
      'theirs@example.com',
    ]);
    const id = /^Recipient (\d+)/.exec(added.out)![1];
    expectRefused(await admin(['recipient', 'remove', id, ...t()]), `Tenant ${tenant} has no recipient ${id}.`);
    expect(await membersOf(theirs)).toEqual(['Theirs']);
  });
});

describe('template', () => {
  test('create, list, update and delete', async () => {
    const created = await admin([
      'template',
      'create',
      ...t(),
      '--name',
      'Evacuation',
      '--content',
      'Leave the building now.',
    ]);
    const id = Number(/^Template (\d+) created: Evacuation\n$/.exec(created.out)![1]);
    const textFile = file('text.txt', 'Gather at the\nfootball field.\n');
    expect((await admin(['template', 'update', String(id), ...t(), '--content-file', textFile])).out).toBe(
      `Template ${id} updated.\n`,
    );
    expect(
      await ctx.services.db
        .selectFrom('cec_templates')
        .select(['name', 'content'])
        .where('id', '=', id)
        .executeTakeFirst(),
    ).toEqual({ name: 'Evacuation', content: 'Gather at the\nfootball field.' });
    expect((await admin(['template', 'list', ...t()])).out).toContain(
      `${id}\tEvacuation\tGather at the football field.\n`,
    );
    expect((await admin(['template', 'delete', String(id), ...t()])).out).toBe(
      `Template ${id} (Evacuation) deleted.\n`,
    );
  });

  test("no text, both sources, too long, or another tenant's template: one line", async () => {
    expectRefused(
      await admin(['template', 'create', ...t(), '--name', 'X']),
      'Give the text with --content or --content-file.',
    );
    expectRefused(
      await admin(['template', 'create', ...t(), '--name', 'X', '--content', 'a', '--content-file', '-']),
      'Give --content or --content-file, not both.',
    );
    expectRefused(
      await admin(['template', 'create', ...t(), '--name', 'X', '--content', 'x'.repeat(10_001)]),
      'The text must be 1 to 10000 characters (it has 10001).',
    );
    const theirs = await admin(['template', 'create', ...t(other), '--name', 'Theirs', '--content', 'Theirs']);
    const id = /^Template (\d+)/.exec(theirs.out)![1];
    expectRefused(await admin(['template', 'delete', id, ...t()]), `Tenant ${tenant} has no template ${id}.`);
  });

  test('each command has its --help', async () => {
    for (const command of [
      ['cec-group', 'create'],
      ['recipient', 'import'],
      ['recipient', 'remove'],
      ['template', 'update'],
    ]) {
      const run = await admin([...command, '--help']);
      expect(run.code).toBe(0);
      expect(run.out).toContain('--tenant <id>');
    }
    expect((await admin(['recipient', 'import', '--help'])).out).toContain('--dry-run');
  });
});
