// The delivery job of a message: expand its groups into recipients and dispatches (once, in one transaction),
// then send them (notify/deliveries.ts). A person in several groups is one recipient; an address is sent to once
// per channel (dispatches_once_uq), even when two contacts share it.
import { sql, type Kysely } from 'kysely';
import type { DispatchChannel } from '../../db/column-types';
import type { DB as Database } from '../../db/types';
import {
  deliverDispatches,
  type ClaimedDispatch,
  type DispatchSourceAdapter,
  type LoadedMessage,
  type Rendered,
} from '../../notify/deliveries';
import type { JobContext, JobResult } from '../../jobs/scheduler';
import type { Services } from '../../services';
import { externalMessage } from '../../messages/external-messages';
import { fallbackLanguage, languageOfTag } from '../../messages/languages';
import { preferredLanguageOf } from '../../messages/recipient-language';
import { confirmationHash, confirmationToken, confirmationUrl } from './confirmation-links';

export async function deliverExternalMessage(
  services: Services,
  messageId: number,
  ctx: JobContext,
): Promise<JobResult> {
  const fresh = await resolveRecipients(services, messageId, ctx.now());
  return deliverDispatches(services, ctx, externalCommunicationAdapter, messageId, { fresh });
}

/** Answers whether the dispatches were created just now (so none can be left over from an earlier run). */
async function resolveRecipients(services: Services, messageId: number, now: Date): Promise<boolean> {
  return services.db.transaction().execute(async (trx) => {
    const message = await trx
      .selectFrom('cec_messages')
      .select(['id', 'tenant_id', 'sender_user_id', 'is_email', 'is_sms', 'has_voice_call', 'recipients_resolved_at'])
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
    // A contact without a language of their own reads the wrapper in the sender's language.
    const senderLanguage =
      message.sender_user_id === null ? null : await preferredLanguageOf(trx, message.sender_user_id);
    for (const [channel, column] of channels)
      await insertDispatches(
        trx,
        { tenantId: message.tenant_id, messageId: message.id, senderLanguage },
        channel,
        column,
        now,
      );
    await trx.updateTable('cec_messages').set({ recipients_resolved_at: now }).where('id', '=', message.id).execute();
    return true;
  });
}

interface Resolving {
  tenantId: number;
  messageId: number;
  senderLanguage: string | null;
}

async function insertDispatches(
  trx: Kysely<Database>,
  m: Resolving,
  channel: DispatchChannel,
  column: 'email' | 'phone',
  now: Date,
) {
  await sql`
    insert into dispatches (tenant_id, source, message_id, recipient_id, channel, sent_to, next_attempt_at, language)
    select ${m.tenantId}, 'cec', r.message_id, r.id, ${channel}, ${sql.ref(`r.${column}`)}, ${now}, coalesce(c.language, ${m.senderLanguage}::text)
      from cec_message_recipients r
      left join cec_contacts c on c.id = r.contact_id
     where r.message_id = ${m.messageId} and ${sql.ref(`r.${column}`)} is not null
     order by r.id
    on conflict do nothing`.execute(trx);
}

export const externalCommunicationAdapter: DispatchSourceAdapter<Services> = {
  source: 'cec',
  async load(services: Services, messageId: number): Promise<LoadedMessage> {
    const message = await services.db
      .selectFrom('cec_messages')
      .select(['content', 'has_confirmation_link', 'email_sender_name', 'sms_sender_id'])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
    const linked = (channel: DispatchChannel) =>
      message.has_confirmation_link && (channel === 'email' || channel === 'sms');
    const link = (dispatch: ClaimedDispatch) =>
      linked(dispatch.channel)
        ? confirmationUrl(services.config.publicBaseUrl, confirmationToken(services.secretKey, dispatch))
        : null;
    return {
      // Written with the claim, before the link leaves (so a sent link always works), and on every attempt (so a
      // retry after a rotation of the secret key carries a working link; sent dispatches are never claimed again).
      ...(message.has_confirmation_link
        ? {
            confirmationHash: (d: { id: number; channel: DispatchChannel; key_nonce: string }) =>
              linked(d.channel) ? confirmationHash(confirmationToken(services.secretKey, d)) : null,
          }
        : {}),
      // The sender's text as written; the wrapper in the recipient's language.
      render(dispatch: ClaimedDispatch): Rendered {
        const language = languageOfTag(dispatch.language) ?? fallbackLanguage;
        const sender = dispatch.channel === 'email' ? message.email_sender_name : message.sms_sender_id;
        return {
          ...externalMessage(language, dispatch.channel, {
            sender: message.email_sender_name,
            content: message.content,
            confirmUrl: link(dispatch),
          }),
          sender,
        };
      },
    };
  },
};
