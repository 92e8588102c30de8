// The delivery job of a message: expand its groups into recipients and dispatches (once, in one transaction),
// then send them (notify/deliveries.ts). A person in several groups is one recipient; an address is sent to once
// per channel (dispatches_once_uq), even when two contacts share it.
import type { DispatchChannel } from '../../db/column-types';
import {
  deliverDispatches,
  type ClaimedDispatch,
  type DispatchSourceAdapter,
  type LoadedMessage,
  type Rendered,
} from '../../notify/deliveries';
import type { JobContext, JobResult } from '../../jobs/scheduler';
import type { ExternalCommunicationDeps } from './external-communication.deps';
import { externalMessage } from '../../messages/external-messages';
import { fallbackLanguage, languageOfTag } from '../../messages/languages';
import { preferredLanguageOf } from '../../messages/recipient-language';
import { confirmationHash, confirmationToken, confirmationUrl } from './confirmation-links';
import {
  findMessageForDelivery,
  insertChannelDispatches,
  insertMessageRecipients,
  lockMessageForResolving,
  markRecipientsResolved,
} from './external-communication.repository';

export async function deliverExternalMessage(
  services: ExternalCommunicationDeps,
  messageId: number,
  ctx: JobContext,
): Promise<JobResult> {
  const fresh = await resolveRecipients(services, messageId, ctx.now());
  return deliverDispatches(services, ctx, externalCommunicationAdapter, messageId, { fresh });
}

/** Answers whether the dispatches were created just now (so none can be left over from an earlier run). */
async function resolveRecipients(services: ExternalCommunicationDeps, messageId: number, now: Date): Promise<boolean> {
  return services.db.transaction().execute(async (trx) => {
    const message = await lockMessageForResolving(trx, messageId);
    if (!message || message.recipients_resolved_at !== null) return false;
    await insertMessageRecipients(trx, { id: message.id, tenantId: message.tenant_id });
    const channels: [DispatchChannel, 'email' | 'phone'][] = [];
    if (message.is_sms) channels.push(['sms', 'phone']);
    if (message.is_email) channels.push(['email', 'email']);
    if (message.has_voice_call) channels.push(['voice', 'phone']);
    // A contact without a language of their own reads the wrapper in the sender's language.
    const senderLanguage =
      message.sender_user_id === null ? null : await preferredLanguageOf(trx, message.sender_user_id);
    for (const [channel, column] of channels)
      await insertChannelDispatches(
        trx,
        { tenantId: message.tenant_id, messageId: message.id, senderLanguage },
        channel,
        column,
        now,
      );
    await markRecipientsResolved(trx, message.id, now);
    return true;
  });
}

export const externalCommunicationAdapter: DispatchSourceAdapter<ExternalCommunicationDeps> = {
  source: 'cec',
  async load(services: ExternalCommunicationDeps, messageId: number): Promise<LoadedMessage> {
    const message = await findMessageForDelivery(services.db, messageId);
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
