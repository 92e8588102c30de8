// /docs: the contract's reference page (generated/docs.html, `redocly build-docs --inlineBundle`: Redoc and the
// contract inline, some 2.8 MB). Sent compressed (Brotli or gzip, made once per process, in zlib's thread pool),
// under a policy that allows exactly the page's own inline scripts by their hashes rather than any inline script,
// and Redoc's logo, an image Redoc loads from its CDN.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** Where Redoc's logo ("API docs by Redocly") comes from. */
export const REDOC_LOGO_ORIGIN = 'https://cdn.redoc.ly';

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

interface DocsPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
  policy: RequestHandler;
}

async function load(path: string): Promise<DocsPage> {
  const html = await readFile(path);
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
      'img-src': ["'self'", 'data:', REDOC_LOGO_ORIGIN],
      'worker-src': ["'self'", 'blob:'],
    },
  });
  return { html, br, gzip: gz, policy };
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
          res.vary('Accept-Encoding');
          res.type('html');
          if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding);
          res.send(encoding === 'br' ? loaded.br : encoding === 'gzip' ? loaded.gzip : loaded.html);
        }),
      (error: unknown) => {
        page = undefined;
        next(error);
      },
    );
  };
}
