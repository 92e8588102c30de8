// External communication: messages to groups of people outside the organisation by email, SMS and voice.
// Sending stores the message and a delivery job in one transaction and answers at once; the job expands the
// groups into recipients and dispatches (notify/deliveries.ts sends them).
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { ExternalCommunicationDeps } from './external-communication.deps';
import { pageOf, type Page, type PageParams } from '../../shared/paging';
import { countExternalMessage } from '../../security/sending-quotas';
import { countVolume } from '../../notify/unusual-volume';
import { ceilingLiftedUntil, selectTenantAdministrators } from './external-communication.quota.repository';
import {
  findExternalMessage,
  findSenderSettings,
  insertExternalMessage,
  selectExternalGroups,
  selectExternalMessages,
  selectExternalTemplates,
  selectMessageGroups,
  selectRecipientDispatches,
  selectRecipients,
  selectTenantExternalGroups,
  type ExternalMessageRow,
  type MessageFilters,
} from './external-communication.repository';

type ExternalGroup = components['schemas']['CecGroup'];
type ExternalTemplate = components['schemas']['CecTemplate'];
type ExternalMessage = components['schemas']['CecMessage'];
type ExternalRecipient = components['schemas']['CecRecipient'];
type ExternalDispatch = components['schemas']['CecDispatch'];
type SendRequest = components['schemas']['SendCecMessageRequest'];

export const channelRequiredMessage = "At least one of 'isEmail' or 'isSms' must be true";
export const externalMessageDeliverJob = 'cec.deliver';

function requireMaySend(auth: AuthContext): void {
  if (auth.permissions?.cec?.maySend !== true)
    throw new ApiError('INSUFFICIENT_PRIVILEGES', { message: 'The user may not send external communication' });
}

export async function listCecGroups(
  services: ExternalCommunicationDeps,
  auth: AuthContext,
  tenantId: number,
  page: PageParams,
): Promise<Page<ExternalGroup>> {
  requireMaySend(auth);
  const { rows, total } = await selectExternalGroups(services.db, tenantId, page);
  return pageOf(
    rows.map((r) => ({ id: r.id, name: r.name, memberCount: Number(r.member_count) })),
    total,
    page,
  );
}

export async function listCecTemplates(
  services: ExternalCommunicationDeps,
  auth: AuthContext,
  tenantId: number,
  page: PageParams,
): Promise<Page<ExternalTemplate>> {
  requireMaySend(auth);
  const { rows, total } = await selectExternalTemplates(services.db, tenantId, page);
  return pageOf(rows, total, page);
}

async function withGroups(services: ExternalCommunicationDeps, rows: ExternalMessageRow[]): Promise<ExternalMessage[]> {
  const groups = await selectMessageGroups(
    services.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    content: r.content,
    channel: { isEmail: r.is_email, isSms: r.is_sms },
    hasVoiceCall: r.has_voice_call,
    hasConfirmationLink: r.has_confirmation_link,
    sender: { name: r.sender_name ?? null },
    sentAt: r.sent_at.toISOString(),
    externalCommunicationGroups: groups.filter((g) => g.message_id === r.id).map((g) => ({ id: g.id, name: g.name })),
  }));
}

export async function listCecMessages(
  services: ExternalCommunicationDeps,
  auth: AuthContext,
  tenantId: number,
  filters: MessageFilters,
  page: PageParams,
): Promise<Page<ExternalMessage>> {
  requireMaySend(auth);
  const { rows, total } = await selectExternalMessages(services.db, tenantId, filters, page);
  return pageOf(await withGroups(services, rows), total, page);
}

async function messageOfTenant(
  services: ExternalCommunicationDeps,
  tenantId: number,
  messageId: number,
): Promise<ExternalMessageRow> {
  const row = await findExternalMessage(services.db, tenantId, messageId);
  if (!row) throw new ApiError('CEC_MESSAGE_NOT_FOUND', { message: 'Message not found' });
  return row;
}

export async function getCecMessage(
  services: ExternalCommunicationDeps,
  auth: AuthContext,
  tenantId: number,
  messageId: number,
): Promise<ExternalMessage> {
  requireMaySend(auth);
  const [message] = await withGroups(services, [await messageOfTenant(services, tenantId, messageId)]);
  return message;
}

export async function sendCecMessage(
  services: ExternalCommunicationDeps,
  auth: AuthContext,
  tenantId: number,
  body: SendRequest,
): Promise<ExternalMessage> {
  requireMaySend(auth);
  if (!body.channel.isEmail && !body.channel.isSms)
    throw new ApiError('BAD_REQUEST', { message: channelRequiredMessage });
  const settings = await findSenderSettings(services.db, tenantId);
  if (!settings)
    throw new ApiError('CEC_TENANT_CONFIGURATION_INCOMPLETE', {
      message: 'External communication is not configured for this tenant',
    });
  const wanted = body.externalCommunicationGroupIds;
  const groups = await selectTenantExternalGroups(services.db, tenantId, wanted);
  const missing = wanted.find((id) => !groups.some((g) => g.id === id));
  if (missing !== undefined)
    throw new ApiError('CEC_MESSAGE_GROUP_FORBIDDEN', { message: `The message may not be sent to group ${missing}` });
  const sentAt = services.now();
  const values = {
    tenant_id: tenantId,
    sender_user_id: auth.userId,
    content: body.text,
    is_email: body.channel.isEmail,
    is_sms: body.channel.isSms,
    has_voice_call: body.includeVoiceCall ?? false,
    has_confirmation_link: body.includeConfirmationLink ?? false,
    email_sender_name: settings.email_sender_name,
    sms_sender_id: settings.sms_sender_id,
    sent_at: sentAt,
  };
  const stored = await services.db.transaction().execute(async (trx) => {
    const row = await insertExternalMessage(trx, values, groups);
    // Counted last, in the transaction that stores the message: a refused request spends nothing.
    const liftedUntil = await ceilingLiftedUntil(trx, tenantId, sentAt);
    await countExternalMessage(
      trx,
      sentAt,
      services.config.quotas,
      { tenantId, userId: auth.userId, tenantAdmin: auth.tenantAdmin === true },
      liftedUntil !== null,
      () => selectTenantAdministrators(trx, tenantId),
    );
    await services.jobs.enqueue(trx, {
      kind: externalMessageDeliverJob,
      dedupeKey: `cec:${row.id}:deliver`,
      payload: { messageId: row.id },
      runAt: sentAt,
    });
    return row;
  });
  services.jobs.wake();
  countVolume(services, 'messages', new Map([[tenantId, 1]]), sentAt);
  const [message] = await withGroups(services, [await messageOfTenant(services, tenantId, stored.id)]);
  return message;
}

const publicStatus = (status: string): ExternalDispatch['status'] =>
  status === 'sent' ? 'sent' : status === 'failed' ? 'failed' : 'queued';

export async function listCecMessageRecipients(
  services: ExternalCommunicationDeps,
  auth: AuthContext,
  tenantId: number,
  messageId: number,
  page: PageParams,
): Promise<Page<ExternalRecipient>> {
  requireMaySend(auth);
  await messageOfTenant(services, tenantId, messageId);
  const { rows, total } = await selectRecipients(services.db, messageId, page);
  const dispatches = await selectRecipientDispatches(
    services.db,
    messageId,
    rows.map((r) => r.id),
  );
  const dispatchOf = (recipientId: number, channel: 'email' | 'sms'): ExternalDispatch | null => {
    const d = dispatches.find((x) => x.recipient_id === recipientId && x.channel === channel);
    return d ? { sentTo: d.sent_to, readAt: d.read_at?.toISOString() ?? null, status: publicStatus(d.status) } : null;
  };
  const data = rows.map((r) => ({
    id: r.id,
    name: r.name,
    title: r.title,
    dispatches: { byEmail: dispatchOf(r.id, 'email'), bySms: dispatchOf(r.id, 'sms') },
    externalCommunicationGroupIds: r.group_ids.map(Number),
  }));
  return pageOf(data, total, page);
}
