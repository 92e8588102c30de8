import type { Message } from '../i18n/failure-messages';

/**
 * Code the app loads on demand (a schema, a step, the network code of a sign-in) could not be fetched: the
 * connection dropped after the page appeared. Nothing was sent; the same press later loads it again.
 */
export class CodeNotLoaded extends Error {
  constructor(cause: unknown) {
    super('Code loaded on demand could not be fetched', { cause });
    this.name = 'CodeNotLoaded';
  }
}

/** What the user reads when code loaded on demand could not be fetched. */
export const CONNECTION: Message = { key: 'errors.connection' };

/** Runs `load` (a dynamic import); a failure becomes CodeNotLoaded. Nothing is remembered: each call loads again. */
export async function loadCode<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new CodeNotLoaded(error);
  }
}
