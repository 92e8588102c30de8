// An email as parts: a subject and blocks (paragraphs and at most a few links), written once as plain text and
// once as HTML, both in the message's language. The HTML is deliberately plain (one column, system fonts, a
// button that is a link): it reads in every mail client and in screen readers; the text part says the same.
import { escapeHtml, t } from './render';
import type { Language } from './languages';

export type EmailBlock =
  /** A paragraph of plain text (newlines are kept). */
  | { text: string }
  /** A link shown as a button, with its address written out below for clients that hide buttons. */
  | { link: string; label: string };

export interface RenderedEmail {
  language: Language;
  subject: string;
  /** The text/plain part. */
  body: string;
  /** The text/html part. */
  html: string;
}

export function composeEmail(language: Language, subject: string, blocks: EmailBlock[]): RenderedEmail {
  const body = blocks.map((b) => ('text' in b ? b.text : b.link)).join('\n\n');
  const html = htmlDocument(language, subject, [
    ...blocks.map((b) => htmlBlock(language, b)),
    `<p style="color:#5b5b66;font-size:13px">${escapeHtml(t(language, 'email.automatic'))}</p>`,
  ]);
  return { language, subject, body, html };
}

function htmlBlock(language: Language, block: EmailBlock): string {
  if ('text' in block) return `<p style="white-space:pre-wrap">${escapeHtml(block.text)}</p>`;
  const href = escapeHtml(block.link);
  return (
    `<p><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:8px;background:#1f4fd1;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(block.label)}</a></p>` +
    `<p style="font-size:13px;color:#5b5b66">${escapeHtml(t(language, 'email.linkFallback'))}<br><a href="${href}" style="color:#1f4fd1;word-break:break-all">${href}</a></p>`
  );
}

function htmlDocument(language: Language, title: string, parts: string[]): string {
  return `<!doctype html>
<html lang="${language}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1b1b1f;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:16px;line-height:1.5">
<div style="max-width:560px;margin:0 auto">
${parts.join('\n')}
</div>
</body>
</html>
`;
}
