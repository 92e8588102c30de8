// /docs: the contract's reference page (generated/docs.html, `redocly build-docs --inlineBundle`: Redoc and the
// contract inline, some 2.8 MB). Sent compressed (Brotli or gzip, made once per process, in zlib's thread pool),
// with a validator per encoding so a browser revalidates it (a 304) rather than fetching it again, under a policy
// that allows exactly the page's own inline scripts by their hashes rather than any inline script. Before that the
// page is made whole here (servePage): its logo and favicon are its own (nothing comes from another host), and
// what axe-core finds serious in Redoc's page (a search label's contrast, a code sample that scrolls but cannot be
// reached with the keyboard) and its narrow reading column on a 1280 px screen are set right.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** Where Redoc's page loads its logo ("API docs by Redocly") from, in place of which the page carries its own. */
const REDOC_LOGO_URLS = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];

/** A small document mark: the page's logo and favicon, sent within the page (img-src allows data:). */
const MARK = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#32329f" stroke-width="2" ' +
    'stroke-linecap="round" stroke-linejoin="round"><path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 ' +
    '2-2V8z"/><path d="M14 2v6h6M8 13h8M8 17h8M8 9h2"/></svg>',
).toString('base64')}`;

/*
 * Redoc's layout gives the reference column and the code samples half each: at 1280 px the text column is 402 px
 * wide. Beside each other (Redoc stacks them on narrower screens), the text takes 65 %. The search label's grey
 * (2.8:1 on white) becomes one that reads (7:1). Redoc's elements carry stable test ids; its class names do not.
 */
const STYLE = `<style>
@media (min-width: 75rem) {
  [data-testid=middle-panel] { width: 65% !important; padding-left: 40px !important; padding-right: 32px !important; }
  [data-testid=right-panel] { width: 35% !important; }
}
[data-testid=search-trigger], [data-testid=search-trigger] * { color: #4a4b57 !important; }
</style>`;

/** A code sample that scrolls is reachable with the keyboard (it can take the focus, and then be scrolled). */
const FOCUSABLE_SCROLLERS =
  '<script>new MutationObserver(function () { document.querySelectorAll("pre:not([tabindex])").forEach(function (pre) ' +
  '{ pre.setAttribute("tabindex", "0"); }); }).observe(document.documentElement, { childList: true, subtree: true });</script>';

/** The page as served: Redoc's, with its own logo and favicon, its styles and its keyboard fix. */
export function servePage(html: string): string {
  let page = html;
  for (const url of REDOC_LOGO_URLS) page = page.split(url).join(MARK);
  const head = `<link rel="icon" type="image/svg+xml" href="${MARK}">${STYLE}${FOCUSABLE_SCROLLERS}`;
  return page.replace('</head>', `${head}</head>`);
}

/** The CSP sources of every inline script of `html`, in order (a script's text is what lies between its tags). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf('<script', at);
    const tagEnd = open < 0 ? -1 : html.indexOf('>', open);
    const close = tagEnd < 0 ? -1 : html.indexOf('</script>', tagEnd);
    if (close < 0) return hashes;
    if (!/\ssrc=/.test(html.slice(open, tagEnd + 1)))
      hashes.push(
        `'sha256-${createHash('sha256')
          .update(html.slice(tagEnd + 1, close))
          .digest('base64')}'`,
      );
    at = close + '</script>'.length;
  }
}

interface Body {
  bytes: Buffer;
  /** A strong validator of these bytes: each encoding is its own representation. */
  etag: string;
}

interface DocsPage {
  html: Body;
  br: Body;
  gzip: Body;
  policy: RequestHandler;
}

const body = (bytes: Buffer): Body => ({
  bytes,
  etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
});

async function load(path: string): Promise<DocsPage> {
  const html = Buffer.from(servePage(await readFile(path, 'utf8')));
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(html, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        // Quality 9 is within a few per cent of 11 on this page, in a fraction of its time.
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    }),
    promisify(gzip)(html, { level: 9 }),
  ]);
  const policy = helmet.contentSecurityPolicy({
    directives: {
      'script-src': ["'self'", ...inlineScriptHashes(html.toString('utf8'))],
      'img-src': ["'self'", 'data:'],
      'worker-src': ["'self'", 'blob:'],
    },
  });
  return { html: body(html), br: body(br), gzip: body(gz), policy };
}

/** The route: the page in the encoding the browser takes best, with its policy. */
export function docsRoute(path: string): RequestHandler {
  let page: Promise<DocsPage> | undefined;
  return (req: Request, res: Response, next) => {
    page ??= load(path);
    page.then(
      (loaded) =>
        loaded.policy(req, res, () => {
          // Brotli whenever it is taken at all (the smaller), else gzip, else the page as it is.
          const encoding =
            req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : 'identity';
          const sent = encoding === 'br' ? loaded.br : encoding === 'gzip' ? loaded.gzip : loaded.html;
          res.vary('Accept-Encoding');
          // 2.8 MB: kept by the browser, and asked again with its validator (a 304 while it is the same page).
          res.set({ 'Cache-Control': 'no-cache', ETag: sent.etag });
          if (req.fresh) {
            res.status(304).end();
            return;
          }
          res.type('html');
          if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding);
          res.send(sent.bytes);
        }),
      (error: unknown) => {
        page = undefined;
        next(error);
      },
    );
  };
}
