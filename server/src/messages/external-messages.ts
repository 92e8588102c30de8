// External communication: the sender's text goes out exactly as written; only what wraps it (who sent it, the
// request to confirm) is in each recipient's language.
import type { DispatchChannel as ChannelName } from '../db/column-types';
import { composeEmail } from './email';
import type { Language } from './languages';
import { t } from './render';

export interface ExternalMessageInput {
  sender: string;
  content: string;
  /** The recipient's confirmation link, when the message asks for one (email and SMS only). */
  confirmUrl: string | null;
}

export interface RenderedExternal {
  language: Language;
  subject?: string;
  body: string;
  html?: string;
}

export function externalMessage(
  language: Language,
  channel: ChannelName,
  input: ExternalMessageInput,
): RenderedExternal {
  const { sender, content, confirmUrl } = input;
  switch (channel) {
    case 'email': {
      const subject = t(language, 'externalMessage.emailSubject', { sender });
      const { html } = composeEmail(language, subject, [
        { text: content },
        ...(confirmUrl
          ? [
              { text: t(language, 'externalMessage.confirmPrompt') },
              { link: confirmUrl, label: t(language, 'externalMessage.confirmAction') },
            ]
          : []),
      ]);
      const body = confirmUrl
        ? `${content}\n\n${t(language, 'externalMessage.confirmEmail', { url: confirmUrl })}\n`
        : content;
      return { language, subject, body, html };
    }
    case 'sms':
      return {
        language,
        body: confirmUrl ? `${content}\n\n${t(language, 'externalMessage.confirmSms', { url: confirmUrl })}` : content,
      };
    default:
      // A call says who is calling before the message.
      return { language, body: `${t(language, 'externalMessage.voiceIntro', { sender })}\n${content}` };
  }
}
