// GET /c/:token shows the message and a confirm button; only POST /c/:token records readAt. Link scanners and
// previews fetch links with GET (and never submit forms), so opening a link confirms nothing.
// CSRF: no cookie or session is involved — the unguessable token in the path is the only credential, so a forged
// cross-site POST could do nothing its author could not do directly; cross-origin POSTs are refused anyway.
// Answers are never cached, never indexed, send no referrer (the token stays out of other sites' logs) and may
// not be framed (helmet, mounted before this router).
// The page speaks the recipient's language (the one their message was written in); a link that finds nothing
// answers in the browser's language.
import { Router, type Request, type Response } from 'express';
import { fallbackLanguage, languageOfTag, negotiateLanguage, type Language } from '../../messages/languages';
import { escapeHtml, t, tHtml } from '../../messages/render';
import type { ExternalCommunicationDeps } from './external-communication.deps';
import { confirmationHash, confirmationTokenPattern } from './confirmation-links';
import { confirmDispatchRead, findConfirmableDispatch } from './external-communication.repository';

interface Confirmable {
  id: number;
  read_at: Date | null;
  content: string;
  sender: string;
  language: string | null;
}

function page(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f;line-height:1.5}
blockquote{white-space:pre-wrap;border-left:4px solid #c8c8d0;margin:1rem 0;padding:.5rem 1rem;background:#f6f6f8}
button{font:inherit;padding:.75rem 1.5rem;border:0;border-radius:.5rem;background:#1f4fd1;color:#fff;cursor:pointer}
</style>
</head>
<body>
${body}
</body>
</html>`;
}

export function confirmationRouter(services: ExternalCommunicationDeps): Router {
  const router = Router();
  const ownOrigin = new URL(services.config.publicBaseUrl).origin;

  router.use((_req, res, next) => {
    res.set({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' });
    next();
  });

  const find = async (token: string): Promise<Confirmable | undefined> => {
    if (!confirmationTokenPattern.test(token)) return undefined;
    return findConfirmableDispatch(services.db, confirmationHash(token));
  };

  const browserLanguage = (req: Request): Language =>
    negotiateLanguage(req.headers['accept-language']) ?? fallbackLanguage;

  const notFound = (req: Request, res: Response) => {
    const lang = browserLanguage(req);
    const body = `<h1>${tHtml(lang, 'confirmationPage.invalidHeading')}</h1><p>${tHtml(lang, 'confirmationPage.invalidText')}</p>`;
    res
      .status(404)
      .type('html')
      .send(page(lang, t(lang, 'confirmationPage.invalidTitle'), body));
  };

  const show = (req: Request, res: Response, found: Confirmable, path: string) => {
    const lang = languageOfTag(found.language) ?? browserLanguage(req);
    const message = `<p>${tHtml(lang, 'confirmationPage.messageFrom', { sender: found.sender })}</p><blockquote>${escapeHtml(found.content)}</blockquote>`;
    if (found.read_at) {
      const done = `<h1>${tHtml(lang, 'confirmationPage.doneHeading')}</h1>${message}<p>${tHtml(lang, 'confirmationPage.doneText')}</p>`;
      return res.type('html').send(page(lang, t(lang, 'confirmationPage.doneTitle'), done));
    }
    const form = `<form method="post" action="${escapeHtml(path)}"><button type="submit">${tHtml(lang, 'confirmationPage.confirmButton')}</button></form>`;
    const title = t(lang, 'confirmationPage.confirmTitle');
    return res.type('html').send(page(lang, title, `<h1>${escapeHtml(title)}</h1>${message}${form}`));
  };

  router.get('/:token', async (req: Request<{ token: string }>, res, next) => {
    try {
      const found = await find(req.params.token);
      if (!found) return void notFound(req, res);
      show(req, res, found, `${req.baseUrl}/${req.params.token}`);
    } catch (error) {
      next(error);
    }
  });

  router.post('/:token', async (req: Request<{ token: string }>, res, next) => {
    try {
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== ownOrigin) {
        const lang = browserLanguage(req);
        return void res
          .status(403)
          .type('html')
          .send(
            page(
              lang,
              t(lang, 'confirmationPage.notAllowedTitle'),
              `<h1>${tHtml(lang, 'confirmationPage.notAllowedTitle')}</h1>`,
            ),
          );
      }
      const found = await find(req.params.token);
      if (!found) return void notFound(req, res);
      // The first confirmation counts; confirming again changes nothing.
      await confirmDispatchRead(services.db, found.id, services.now());
      // Post/redirect/get: reloading the answer does not post again.
      res.redirect(303, `${req.baseUrl}/${req.params.token}`);
    } catch (error) {
      next(error);
    }
  });

  return router;
}
