// Development only: every message the dev outbox "sent", newest first, so codes and links can be read: a page for
// a browser (dev-outbox-page.ts), JSON for tests and scripts (Accept: application/json, or no type named).
import { Router } from 'express';
import { ApiError } from '../errors';
import type { Db } from '../db/database';
import { outboxPage } from './dev-outbox-page';
import { selectOutboxMessages } from './notify.repository';

export function devOutboxRouter(services: { db: Db }): Router {
  const router = Router();
  router.get('/', async (req, res, next) => {
    try {
      const to = typeof req.query.to === 'string' ? req.query.to : undefined;
      if (to !== undefined && (to.length === 0 || to.length > 320))
        throw new ApiError('BAD_REQUEST', { message: 'to must be 1-320 characters' });
      const rows = await selectOutboxMessages(services.db, to);
      if (req.accepts(['json', 'html']) === 'html') res.type('html').send(outboxPage(rows));
      else res.json({ data: rows });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
