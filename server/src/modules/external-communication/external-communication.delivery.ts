// The delivery job of a message: expand its groups into recipients and dispatches (once, in one transaction),
// then send them (jobs/deliveries.ts). A person in several groups is one recipient; an address is sent to once
// per channel (dispatches_once_uq), even when two contacts share it.
import { sql, type Kysely } from 'kysely';
import type { Database, DispatchChannel } from '../../db/types';
import { deliverDispatches, type ClaimedDispatch, type DispatchSourceAdapter, type LoadedMessage, type Rendered } from '../../jobs/deliveries';
import type { JobContext, JobResult } from '../../jobs/scheduler';
import type { Services } from '../../services';
import { confirmationHash, confirmationToken, confirmationUrl } from './confirmation-links';

export async function deliverCecMessage(services: Services, messageId: number, ctx: JobContext): Promise<JobResult> {
  const fresh = await resolveRecipients(services, messageId, ctx.now());
  return deliverDispatches(services, ctx, cecAdapter, messageId, { fresh });
}

/** Answers whether the dispatches were created just now (so none can be left over from an earlier run). */
async function resolveRecipients(services: Services, messageId: number, now: Date): Promise<boolean> {
  return services.db.transaction().execute(async (trx) => {
    const message = await trx
      .selectFrom('cec_messages')
      .select(['id', 'tenant_id', 'is_email', 'is_sms', 'has_voice_call', 'recipients_resolved_at'])
      .where('id', '=', messageId)
      .forUpdate()
      .executeTakeFirst();
    if (!message || message.recipients_resolved_at !== null) return false;
    await sql`
      insert into cec_message_recipients (message_id, contact_id, name, title, email, phone, group_ids)
      select ${message.id}, c.id, c.name, c.title, c.email, c.phone, array_agg(gm.group_id order by gm.group_id)
        from cec_message_groups mg
        join cec_group_members gm on gm.group_id = mg.group_id and gm.tenant_id = ${message.tenant_id}
        join cec_contacts c on c.id = gm.contact_id and c.tenant_id = ${message.tenant_id}
       where mg.message_id = ${message.id}
       group by c.id
       order by c.id
      on conflict do nothing`.execute(trx);
    const channels: [DispatchChannel, 'email' | 'phone'][] = [];
    if (message.is_sms) channels.push(['sms', 'phone']);
    if (message.is_email) channels.push(['email', 'email']);
    if (message.has_voice_call) channels.push(['voice', 'phone']);
    for (const [channel, column] of channels) await insertDispatches(trx, message.tenant_id, message.id, channel, column, now);
    await trx.updateTable('cec_messages').set({ recipients_resolved_at: now }).where('id', '=', message.id).execute();
    return true;
  });
}

async function insertDispatches(trx: Kysely<Database>, tenantId: number, messageId: number, channel: DispatchChannel, column: 'email' | 'phone', now: Date) {
  await sql`
    insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at)
    select ${tenantId}, 'cec', r.message_id, r.id, ${channel}, ${sql.ref(`r.${column}`)}, ${now}
      from cec_message_recipients r
     where r.message_id = ${messageId} and ${sql.ref(`r.${column}`)} is not null
     order by r.id
    on conflict do nothing`.execute(trx);
}

export const cecAdapter: DispatchSourceAdapter = {
  source: 'cec',
  async load(services: Services, messageId: number): Promise<LoadedMessage> {
    const message = await services.db
      .selectFrom('cec_messages')
      .select(['content', 'has_confirmation_link', 'email_sender_name', 'sms_sender_id'])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    const linked = (channel: DispatchChannel) => message.has_confirmation_link && (channel === 'email' || channel === 'sms');
    const link = (dispatch: ClaimedDispatch) =>
      linked(dispatch.channel) ? confirmationUrl(services.config.publicBaseUrl, confirmationToken(services.secretKey, dispatch)) : null;
    return {
      // Written with the claim, before the link leaves (so a sent link always works), and on every attempt (so a
      // retry after a rotation of the secret key carries a working link; sent dispatches are never claimed again).
      ...(message.has_confirmation_link
        ? { confirmationHash: (d: { id: number; channel: DispatchChannel; key_nonce: string }) => (linked(d.channel) ? confirmationHash(confirmationToken(services.secretKey, d)) : null) }
        : {}),
      render(dispatch: ClaimedDispatch): Rendered {
        const url = link(dispatch);
        switch (dispatch.channel) {
          case 'email':
            return {
              subject: `Message from ${message.email_sender_name}`,
              body: url ? `${message.content}\n\nPlease confirm that you have read this message: ${url}\n` : message.content,
              sender: message.email_sender_name,
            };
          case 'sms':
            return { body: url ? `${message.content}\n\nConfirm: ${url}` : message.content, sender: message.sms_sender_id };
          default:
            return { body: message.content, sender: message.sms_sender_id };
        }
      },
    };
  },
};
