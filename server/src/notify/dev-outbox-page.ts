// The development outbox as a page for a browser: one section per recipient (the one with the newest message
// first), each recipient's messages newest first, links clickable and six-digit codes marked. Everything shown is
// escaped: message bodies hold whatever a test or a user typed.

export interface OutboxRow {
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  createdAt: Date | string;
}

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** A body as HTML: links as links, six-digit codes marked, the rest escaped. */
function bodyHtml(body: string): string {
  let html = '';
  let at = 0;
  const text = (part: string) => escape(part).replace(/\b(\d{6})\b/g, '<strong class="code">$1</strong>');
  for (const match of body.matchAll(URL_PATTERN)) {
    // Punctuation that ends a sentence is not part of the link.
    const url = match[0].replace(/[.,;:!?)]+$/, '');
    html += text(body.slice(at, match.index));
    html += `<a href="${escape(url)}">${escape(url)}</a>`;
    at = match.index + url.length;
  }
  return html + text(body.slice(at));
}

export function outboxPage(rows: readonly OutboxRow[]): string {
  const byRecipient = new Map<string, OutboxRow[]>();
  for (const row of rows) byRecipient.set(row.to, [...(byRecipient.get(row.to) ?? []), row]);
  const sections = [...byRecipient.entries()].map(
    ([to, messages]) =>
      `<section><h2>${escape(to)}</h2>${messages
        .map(
          (message) =>
            `<article><p class="meta">${escape(message.channel)} · ${escape(new Date(message.createdAt).toISOString())}</p>` +
            (message.subject ? `<h3>${escape(message.subject)}</h3>` : '') +
            `<p class="body">${bodyHtml(message.body)}</p></article>`,
        )
        .join('')}</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development outbox</title>
<style>
body{font-family:system-ui,sans-serif;margin:24px;max-width:60rem;color:#1b2430;background:#f2f5f9}
section{background:#fff;border-radius:8px;padding:8px 16px;margin-bottom:16px}
article{border-top:1px solid #dde3ea;padding:8px 0}
.meta{color:#4f5b6a;font-size:.875rem;margin:0}.body{white-space:pre-wrap;overflow-wrap:anywhere}
.code{font-size:1.25rem;letter-spacing:.1em;background:#fff4dc;padding:0 4px}
@media (prefers-color-scheme:dark){body{color:#e7ecf2;background:#10151c}section{background:#1a212b}
.meta{color:#b3bdc9}.code{background:#332710}a{color:#8cbcff}}
</style></head>
<body><h1>Development outbox</h1>
<p class="meta">The newest 100 messages, newest first. JSON for scripts: send <code>Accept: application/json</code>.</p>
${sections.length > 0 ? sections.join('\n') : '<p>No messages yet.</p>'}
</body></html>
`;
}
