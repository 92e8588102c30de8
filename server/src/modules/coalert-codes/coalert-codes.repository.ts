// coAlert codes' statements: the user a code is issued to, and the codes themselves.
import type { Executor } from '../../db/database';

/** The user a code would be issued to, found by the hash of their address. */
export const findCodeOwnerByEmailHash = (db: Executor, emailHash: string) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'deactivated_at'])
    .where('email_hash', '=', emailHash)
    .executeTakeFirst();

export const insertCoalertCode = (
  db: Executor,
  code: {
    code_hash: string;
    user_id: number;
    usage_limit: number;
    expires_at: Date | null;
    label: string;
    created_at: Date;
  },
) => db.insertInto('coalert_codes').values(code).returning('id').executeTakeFirstOrThrow();

/** Every code with its user's address, oldest first; of one user when their address hash is given. */
export const listCoalertCodeRows = (db: Executor, filter: { userEmailHash?: string }) => {
  let query = db
    .selectFrom('coalert_codes as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'u.email', 'c.label', 'c.usage_count', 'c.usage_limit', 'c.expires_at', 'c.created_at'])
    .orderBy('c.id');
  if (filter.userEmailHash) query = query.where('u.email_hash', '=', filter.userEmailHash);
  return query.execute();
};

/** Deletes a code; answers whether there was one. */
export const deleteCoalertCode = async (db: Executor, id: number): Promise<boolean> => {
  const result = await db.deleteFrom('coalert_codes').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
};
