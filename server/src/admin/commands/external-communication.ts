// cec-group create | list | rename | delete; recipient import | add | list | remove; template create | list |
// update | delete: a tenant's external communication, set up without SQL.
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import {
  addRecipient,
  checkRecipientPhone,
  createCecGroup,
  decodeRecipientsFile,
  createTemplate,
  deleteCecGroup,
  deleteTemplate,
  importRecipients,
  listCecGroupsWithMembers,
  listRecipients,
  listTemplates,
  recipientFileEncoding,
  removeRecipient,
  renameCecGroup,
  updateTemplate,
  validRecipientEmail,
  type ImportReport,
  type RecipientFileEncoding,
} from '../../modules/external-communication';
import { AdminError } from '../admin-error';
import { readBytesArgument, readTextArgument, tenantName, type AdminIo } from '../admin-io';
import { language, positiveInt, text } from '../parse';

const tenantOption = ['--tenant <id>', 'the tenant (`tenant list` shows them)', positiveInt()] as const;

// A recipient's address and number are checked by the rules of an import (the mailer's address parser; a valid
// number in E.164), not by the looser ones of a user's.
function recipientEmail(value: string): string {
  const trimmed = value.trim();
  if (!validRecipientEmail(trimmed)) throw new InvalidArgumentError('Must be one email address.');
  return trimmed;
}

async function recipientPhone(value: string): Promise<string> {
  const checked = await checkRecipientPhone(value);
  if ('problem' in checked) throw new AdminError(`--phone "${value}" ${checked.problem}.`);
  return checked.number;
}

function fileEncoding(value: string): RecipientFileEncoding {
  const encoding = recipientFileEncoding(value);
  if (!encoding) throw new InvalidArgumentError('Must be utf-8 or windows-1252 (latin1 is read as windows-1252).');
  return encoding;
}

function summary(report: ImportReport, dryRun: boolean): string {
  const verb = dryRun ? 'would be' : 'were';
  return (
    `${report.rows} recipient(s) in the file: ${report.added} ${verb} added, ${report.updated} ${verb} updated, ` +
    `${report.unchanged} unchanged; ${report.joined} ${verb} new in group "${report.groupName}".`
  );
}

export function externalCommunicationCommands(program: Command, io: AdminIo): void {
  const groups = program
    .command('cec-group')
    .description('External-communication groups: whom a crisis message by email and SMS goes to');

  groups
    .command('create')
    .description('Create a group; prints its id')
    .requiredOption(...tenantOption)
    .requiredOption('--name <name>', "the group's name (1-255 characters, unique in the tenant)", text(1, 255))
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const id = await createCecGroup(services, options.tenant, options.name);
      io.out(`External-communication group ${id} created: ${options.name}\n`);
    });

  groups
    .command('list')
    .description("List the tenant's groups: id, name, number of recipients")
    .requiredOption(...tenantOption)
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const rows = await listCecGroupsWithMembers(services, options.tenant);
      if (rows.length === 0) return void io.out('No external-communication groups.\n');
      for (const r of rows) io.out(`${r.id}\t${r.name}\t${r.members} recipient(s)\n`);
    });

  groups
    .command('rename')
    .description('Rename a group (messages already sent keep the name they were sent with)')
    .argument('<id>', "the group's id", positiveInt())
    .requiredOption(...tenantOption)
    .requiredOption('--name <name>', 'the new name (1-255 characters)', text(1, 255))
    .action(async (id, options) => {
      const before = await renameCecGroup(await io.services(), options.tenant, id, options.name);
      io.out(`Group ${id} renamed from "${before}" to "${options.name}".\n`);
    });

  groups
    .command('delete')
    .description('Delete a group; its recipients stay in their other groups, and sent messages keep its name')
    .argument('<id>', "the group's id", positiveInt())
    .requiredOption(...tenantOption)
    .action(async (id, options) => {
      const name = await deleteCecGroup(await io.services(), options.tenant, id);
      io.out(`Group ${id} (${name}) deleted.\n`);
    });

  const recipients = program
    .command('recipient')
    .description('Recipients of external communication (name, title, email, phone) and their groups');

  recipients
    .command('import')
    .description(
      'Import recipients into a group from a CSV file with a header line: name, email and/or phone, optionally title and language. A recipient with the same email or phone is updated, not added again. Nothing is imported unless every row is valid; each bad row is reported by its line',
    )
    .requiredOption(...tenantOption)
    .requiredOption('--group <id>', 'the group they join', positiveInt())
    .requiredOption('--file <path>', 'the CSV file (UTF-8, as Excel\'s "CSV UTF-8" saves it), or - for standard input')
    .option(
      '--encoding <name>',
      'the file\'s encoding when it is not UTF-8: windows-1252 (also latin1), what Excel\'s plain "CSV" saves in Western Europe',
      fileEncoding,
    )
    .option('--dry-run', 'check the file and say what would change, without changing anything')
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const csv = decodeRecipientsFile(await readBytesArgument(io, options.file, 'the file'), options.encoding);
      if (typeof csv !== 'string')
        throw new AdminError(`${options.file}: nothing was imported. line ${csv.line}: ${csv.message}.`);
      const dryRun = options.dryRun === true;
      const report = await importRecipients(services, {
        tenantId: options.tenant,
        groupId: options.group,
        csv,
        dryRun,
      });
      if (report.problems.length) {
        const lines = report.problems.map((p) => `  line ${p.line}: ${p.message}`).join('\n');
        throw new AdminError(
          `${options.file}: ${report.problems.length} bad row(s); nothing was imported. Fix them and run again:\n${lines}`,
        );
      }
      io.out(`${dryRun ? 'Dry run, nothing changed. ' : ''}${summary(report, dryRun)}\n`);
    });

  recipients
    .command('add')
    .description('Add one recipient to a group (the same recipient, by email or phone, is updated instead)')
    .requiredOption(...tenantOption)
    .requiredOption('--group <id>', 'the group they join', positiveInt())
    .requiredOption('--name <name>', 'their name (1-255 characters)', text(1, 255))
    .option('--title <title>', 'their title', text(1, 255))
    .option('--email <email>', 'their email address', recipientEmail)
    .option('--phone <number>', 'their mobile number (+ and the country code; stored in E.164)')
    .option('--language <code>', 'the language of what wraps a message (sv, en, nl, fi, es, pt)', language)
    .action(async (options) => {
      if (!options.email && !options.phone) throw new AdminError('Give --email, --phone or both.');
      const phone = options.phone === undefined ? undefined : await recipientPhone(options.phone);
      const services = await io.services();
      await tenantName(services, options.tenant);
      const { report, id } = await addRecipient(services, {
        tenantId: options.tenant,
        groupId: options.group,
        recipient: { ...options, phone },
      });
      const what = report.added ? 'added' : report.updated ? 'updated' : 'unchanged';
      io.out(`Recipient ${id} (${options.name}) ${what}; in group "${report.groupName}".\n`);
    });

  recipients
    .command('list')
    .description("List the tenant's recipients: id, name, title, email, phone, group ids")
    .requiredOption(...tenantOption)
    .option('--group <id>', 'only this group', positiveInt())
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const rows = await listRecipients(services, options.tenant, options.group);
      if (rows.length === 0) return void io.out('No recipients.\n');
      for (const r of rows)
        io.out(`${r.id}\t${r.name}\t${r.title ?? ''}\t${r.email ?? ''}\t${r.phone ?? ''}\tgroups ${r.groups || '-'}\n`);
    });

  recipients
    .command('remove')
    .description('Take a recipient out of a group, or without --group delete them from every group')
    .argument('<id>', "the recipient's id (`recipient list` shows them)", positiveInt())
    .requiredOption(...tenantOption)
    .option('--group <id>', 'only from this group', positiveInt())
    .action(async (id, options) => {
      io.out(
        `${await removeRecipient(await io.services(), { tenantId: options.tenant, recipientId: id, groupId: options.group })}\n`,
      );
    });

  const templates = program
    .command('template')
    .description('Message templates: texts an administrator starts an external message from');

  templates
    .command('create')
    .description('Create a template; prints its id')
    .requiredOption(...tenantOption)
    .requiredOption('--name <name>', "the template's name (1-255 characters)", text(1, 255))
    .option('--content <text>', 'its text (1-10000 characters)')
    .option('--content-file <path>', 'a file holding its text, or - for standard input')
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const content = await templateText(io, options);
      if (content === undefined) throw new AdminError('Give the text with --content or --content-file.');
      const id = await createTemplate(services, options.tenant, { name: options.name, content });
      io.out(`Template ${id} created: ${options.name}\n`);
    });

  templates
    .command('list')
    .description("List the tenant's templates: id, name, the start of the text")
    .requiredOption(...tenantOption)
    .action(async (options) => {
      const services = await io.services();
      await tenantName(services, options.tenant);
      const rows = await listTemplates(services, options.tenant);
      if (rows.length === 0) return void io.out('No templates.\n');
      for (const r of rows) {
        const start = r.content.replace(/\s+/g, ' ');
        io.out(`${r.id}\t${r.name}\t${start.length > 60 ? `${start.slice(0, 60)}…` : start}\n`);
      }
    });

  templates
    .command('update')
    .description("Change a template's name or text")
    .argument('<id>', "the template's id", positiveInt())
    .requiredOption(...tenantOption)
    .option('--name <name>', 'the new name (1-255 characters)', text(1, 255))
    .option('--content <text>', 'the new text (1-10000 characters)')
    .option('--content-file <path>', 'a file holding the new text, or - for standard input')
    .action(async (id, options) => {
      const content = await templateText(io, options);
      if (options.name === undefined && content === undefined)
        throw new AdminError('Give --name, --content or --content-file.');
      await updateTemplate(await io.services(), options.tenant, id, { name: options.name, content });
      io.out(`Template ${id} updated.\n`);
    });

  templates
    .command('delete')
    .description('Delete a template')
    .argument('<id>', "the template's id", positiveInt())
    .requiredOption(...tenantOption)
    .action(async (id, options) => {
      const name = await deleteTemplate(await io.services(), options.tenant, id);
      io.out(`Template ${id} (${name}) deleted.\n`);
    });
}

/** The text from --content or --content-file (not both), checked: 1 to 10000 characters, no control characters. */
async function templateText(
  io: AdminIo,
  options: { content?: string; contentFile?: string },
): Promise<string | undefined> {
  if (options.content !== undefined && options.contentFile !== undefined)
    throw new AdminError('Give --content or --content-file, not both.');
  const given =
    options.contentFile !== undefined
      ? await readTextArgument(io, options.contentFile, 'the text file')
      : options.content;
  if (given === undefined) return undefined;
  const content = given.replace(/\r\n/g, '\n').trim();
  const length = [...content].length;
  if (length < 1 || length > 10_000) throw new AdminError(`The text must be 1 to 10000 characters (it has ${length}).`);
  if (/[^\P{Cc}\n\t]/u.test(content)) throw new AdminError('The text must not contain control characters.');
  return content;
}
