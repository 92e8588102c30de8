// A database handle that counts the statements sent through it, for tests of how much work a request costs (or that
// a refusal costs none), and can step in once a given statement has answered, to play a change made meanwhile.
import type { Db } from '../../src/db/database';

/** `db`, counting the statements sent through it; `after(n)` runs once the n-th (from 1) has answered. */
export function watchedDb(db: Db, after?: (statement: number) => Promise<void>) {
  const sent = { statements: 0 };
  const watched = new Proxy(db, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name !== 'executeQuery') return value.bind(target);
      return async (...args: unknown[]) => {
        const statement = ++sent.statements;
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await after?.(statement);
        return result;
      };
    },
  });
  return { db: watched, sent };
}
