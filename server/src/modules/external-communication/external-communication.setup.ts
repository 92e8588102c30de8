// The operator's set-up of a tenant's external communication (the API reads it; `npm run admin` writes it):
// groups, their recipients (one by one, or imported from CSV) and message templates. A refusal is a
// SetupRefused whose message says what to do.
import type { ExternalCommunicationDeps } from './external-communication.deps';
import type { Db } from '../../db/database';
import { findSenderSettings, upsertSenderSettings } from './external-communication.repository';
import * as repo from './external-communication.setup.repository';
import { normalisePhone, parseRecipientsCsv, validEmail, type RowProblem } from './recipients-csv';

export class SetupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupRefused';
  }
}

async function groupOf(services: ExternalCommunicationDeps, tenantId: number, groupId: number) {
  const group = await repo.findCecGroup(services.db, tenantId, groupId);
  if (!group)
    throw new SetupRefused(
      `Tenant ${tenantId} has no external-communication group ${groupId}. \`cec-group list --tenant ${tenantId}\` shows them.`,
    );
  return group;
}

async function refuseTakenName(services: ExternalCommunicationDeps, tenantId: number, name: string, except?: number) {
  const taken = await repo.findCecGroupNamed(services.db, tenantId, name, except);
  if (taken) throw new SetupRefused(`Tenant ${tenantId} already has a group named "${taken.name}" (id ${taken.id}).`);
}

export async function createCecGroup(
  services: ExternalCommunicationDeps,
  tenantId: number,
  name: string,
): Promise<number> {
  await refuseTakenName(services, tenantId, name);
  return repo.insertCecGroup(services.db, tenantId, name);
}

export const listCecGroupsWithMembers = (services: ExternalCommunicationDeps, tenantId: number) =>
  repo.allCecGroups(services.db, tenantId);

export async function renameCecGroup(
  services: ExternalCommunicationDeps,
  tenantId: number,
  groupId: number,
  name: string,
) {
  const group = await groupOf(services, tenantId, groupId);
  await refuseTakenName(services, tenantId, name, groupId);
  await repo.renameCecGroup(services.db, tenantId, groupId, name);
  return group.name;
}

/** Deletes the group; messages sent to it keep its name, and its recipients stay in the tenant's other groups. */
export async function deleteCecGroup(services: ExternalCommunicationDeps, tenantId: number, groupId: number) {
  const group = await groupOf(services, tenantId, groupId);
  await repo.deleteCecGroup(services.db, tenantId, groupId);
  return group.name;
}

export interface ImportReport {
  /** Bad rows: when there is one, nothing was written. */
  problems: RowProblem[];
  rows: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Recipients that were not in the group before. */
  joined: number;
  groupName: string;
}

const same = (a: repo.ContactValues, b: repo.ContactValues) =>
  a.name === b.name && a.title === b.title && a.email === b.email && a.phone === b.phone && a.language === b.language;

/**
 * Imports recipients into a group from CSV text. A row is the recipient with the same email (any case) or the same
 * phone if the tenant has one (its name, title and language are updated; an email or phone it lacked is added),
 * else a new recipient: importing the same file twice changes nothing. Either every row is valid and all are
 * written in one transaction, or nothing is written and every bad row is reported; `dryRun` writes nothing either
 * way and reports what an import would do.
 */
export async function importRecipients(
  services: ExternalCommunicationDeps,
  input: { tenantId: number; groupId: number; csv: string; dryRun: boolean },
): Promise<ImportReport> {
  const group = await groupOf(services, input.tenantId, input.groupId);
  const parsed = await parseRecipientsCsv(input.csv);
  const report: ImportReport = {
    problems: parsed.problems,
    rows: parsed.rows.length,
    added: 0,
    updated: 0,
    unchanged: 0,
    joined: 0,
    groupName: group.name,
  };
  if (parsed.problems.length) return report;
  await services.db.transaction().execute(async (trx) => {
    await repo.lockTenantRecipients(trx, input.tenantId);
    const existing = await repo.contactsMatching(
      trx,
      input.tenantId,
      parsed.rows.flatMap((r) => (r.email ? [r.email] : [])),
      parsed.rows.flatMap((r) => (r.phone ? [r.phone] : [])),
    );
    // Maps, not scans: each row finds its recipients in constant time, so an import is linear in its rows.
    const byEmail = new Map<string, repo.Contact[]>();
    const byPhone = new Map<string, repo.Contact[]>();
    const add = (map: Map<string, repo.Contact[]>, key: string | null, c: repo.Contact) => {
      if (key !== null) map.set(key, [...(map.get(key) ?? []), c]);
    };
    for (const c of existing) {
      add(byEmail, c.email?.toLowerCase() ?? null, c);
      add(byPhone, c.phone, c);
    }
    const lineOf = new Map<number, number>();
    const plan: { line: number; id: number | null; values: repo.ContactValues; change: boolean }[] = [];
    for (const row of parsed.rows) {
      const found = new Map<number, repo.Contact>();
      for (const c of row.email === null ? [] : (byEmail.get(row.email.toLowerCase()) ?? []))
        found.set(Number(c.id), c);
      for (const c of row.phone === null ? [] : (byPhone.get(row.phone) ?? [])) found.set(Number(c.id), c);
      const matches = [...found.values()];
      if (matches.length > 1) {
        report.problems.push({
          line: row.line,
          message: `its email and phone belong to two different recipients (ids ${matches.map((m) => m.id).join(' and ')}); remove one of them first`,
        });
        continue;
      }
      const [match] = matches;
      const earlier = match ? lineOf.get(Number(match.id)) : undefined;
      if (earlier !== undefined) {
        report.problems.push({
          line: row.line,
          message: `it and line ${earlier} are the same recipient (id ${match.id}) by email or phone`,
        });
        continue;
      }
      if (match) lineOf.set(Number(match.id), row.line);
      const values: repo.ContactValues = {
        name: row.name,
        title: row.title ?? match?.title ?? null,
        // The same address written in another case stays as it was.
        email:
          row.email !== null && match?.email?.toLowerCase() !== row.email.toLowerCase()
            ? row.email
            : (match?.email ?? row.email),
        phone: row.phone ?? match?.phone ?? null,
        language: row.language ?? match?.language ?? null,
      };
      plan.push({
        line: row.line,
        id: match ? Number(match.id) : null,
        values,
        change: !match || !same(match, values),
      });
    }
    if (report.problems.length) return;
    report.added = plan.filter((p) => p.id === null).length;
    report.updated = plan.filter((p) => p.id !== null && p.change).length;
    report.unchanged = plan.length - report.added - report.updated;
    const members = new Set(await repo.memberIdsOf(trx, input.tenantId, input.groupId));
    report.joined = plan.filter((p) => p.id === null || !members.has(p.id)).length;
    if (input.dryRun) return;
    await repo.insertContactsIntoGroup(
      trx,
      input.tenantId,
      input.groupId,
      plan.filter((p) => p.id === null).map((p) => p.values),
    );
    await repo.updateContacts(
      trx,
      input.tenantId,
      plan.flatMap((p) => (p.id !== null && p.change ? [{ ...p.values, id: p.id }] : [])),
    );
    await repo.addToCecGroup(
      trx,
      input.tenantId,
      input.groupId,
      plan.flatMap((p) => (p.id !== null && !members.has(p.id) ? [p.id] : [])),
    );
  });
  report.problems.sort((a, b) => a.line - b.line);
  return report;
}

export interface RecipientInput {
  name: string;
  title?: string;
  email?: string;
  phone?: string;
  language?: string;
}

/** Adds one recipient to a group: the same rules as one row of an import (matched by email or phone). */
export async function addRecipient(
  services: ExternalCommunicationDeps,
  input: { tenantId: number; groupId: number; recipient: RecipientInput },
): Promise<{ report: ImportReport; id: number }> {
  const r = input.recipient;
  if (!r.email && !r.phone) throw new SetupRefused('A recipient needs an email address or a phone number (or both).');
  if (r.email && !validEmail(r.email)) throw new SetupRefused('The email is not an email address.');
  const phone = r.phone ? await normalisePhone(r.phone) : null;
  if (r.phone && !phone) throw new SetupRefused('The phone is not an international number.');
  const quote = (v: string | undefined) => `"${(v ?? '').replace(/"/g, '""')}"`;
  const csv = `name,title,email,phone,language\n${[r.name, r.title, r.email, r.phone, r.language].map(quote).join(',')}\n`;
  const report = await importRecipients(services, {
    tenantId: input.tenantId,
    groupId: input.groupId,
    csv,
    dryRun: false,
  });
  if (report.problems.length) throw new SetupRefused(report.problems.map((p) => p.message).join('; '));
  const [match] = await repo.contactsMatching(
    services.db,
    input.tenantId,
    r.email ? [r.email] : [],
    phone ? [phone] : [],
  );
  return { report, id: Number(match.id) };
}

export const listRecipients = (services: ExternalCommunicationDeps, tenantId: number, groupId?: number) =>
  repo.contactsOf(services.db, tenantId, groupId);

/** Takes a recipient out of one group, or, without a group, deletes them (from every group). */
export async function removeRecipient(
  services: ExternalCommunicationDeps,
  input: { tenantId: number; recipientId: number; groupId?: number },
): Promise<string> {
  const contact = await repo.findContact(services.db, input.tenantId, input.recipientId);
  if (!contact)
    throw new SetupRefused(
      `Tenant ${input.tenantId} has no recipient ${input.recipientId}. \`recipient list --tenant ${input.tenantId}\` shows them.`,
    );
  if (input.groupId === undefined) {
    await repo.deleteContact(services.db, input.tenantId, input.recipientId);
    return `Recipient ${contact.id} (${contact.name}) deleted from every group.`;
  }
  const group = await groupOf(services, input.tenantId, input.groupId);
  const was = await repo.removeFromCecGroup(services.db, input.tenantId, input.groupId, input.recipientId);
  if (!was)
    throw new SetupRefused(`Recipient ${contact.id} (${contact.name}) is not in group ${group.id} (${group.name}).`);
  return `Recipient ${contact.id} (${contact.name}) removed from group ${group.id} (${group.name}).`;
}

export async function createTemplate(
  services: ExternalCommunicationDeps,
  tenantId: number,
  values: { name: string; content: string },
) {
  return repo.insertTemplate(services.db, tenantId, values);
}

export const listTemplates = (services: ExternalCommunicationDeps, tenantId: number) =>
  repo.allTemplates(services.db, tenantId);

async function templateOf(services: ExternalCommunicationDeps, tenantId: number, id: number) {
  const template = await repo.findTemplate(services.db, tenantId, id);
  if (!template)
    throw new SetupRefused(
      `Tenant ${tenantId} has no template ${id}. \`template list --tenant ${tenantId}\` shows them.`,
    );
  return template;
}

export async function updateTemplate(
  services: ExternalCommunicationDeps,
  tenantId: number,
  id: number,
  values: { name?: string; content?: string },
) {
  await templateOf(services, tenantId, id);
  await repo.updateTemplate(services.db, tenantId, id, values);
}

export async function deleteTemplate(services: ExternalCommunicationDeps, tenantId: number, id: number) {
  const template = await templateOf(services, tenantId, id);
  await repo.deleteTemplate(services.db, tenantId, id);
  return template.name;
}

/** The names a tenant's messages are sent under (email sender name, SMS sender id), if it has set them. */
export const senderSettingsOf = (db: Db, tenantId: number) => findSenderSettings(db, tenantId);

/** Sets the names a tenant's messages are sent under. */
export const setSenderSettings = (
  db: Db,
  tenantId: number,
  values: { email_sender_name: string; sms_sender_id: string },
  now: Date,
) => upsertSenderSettings(db, tenantId, values, now);
