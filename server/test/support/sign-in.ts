// Helpers for sign-in tests: users with real argon2 password hashes, and a clock tests can move.
import { hashPassword } from '../../src/security/passwords';
import type { Services } from '../../src/services';
import { insertUser, type UserOptions } from './fixtures';

export const goodPassword = 'Correct-Horse-9!';
let cachedHash: Promise<string> | null = null;
export const goodPasswordHash = () => (cachedHash ??= hashPassword(goodPassword));

export async function insertUserWithPassword(services: Services, options: UserOptions = {}) {
  return insertUser(services, { passwordHash: await goodPasswordHash(), ...options });
}

/** A clock that starts now and moves only when told. */
export function movableClock() {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  return { now, advance: (ms: number) => void (offset += ms) };
}

export const latestOutboxMessage = async (services: Services, to: string) =>
  services.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', '=', to)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const codeFrom = (body: string) => /\b(\d{6})\b/.exec(body)?.[1] ?? '';
