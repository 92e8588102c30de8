/** userId and token of an emailed set-password or reset-password link. */
export interface PasswordLink {
  userId: number;
  token: string;
}

/** The contract's token format: 16-256 characters of the URL-safe base64 alphabet. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;
/** A positive id without leading zeros that JavaScript holds exactly. */
const USER_ID = /^[1-9][0-9]{0,15}$/;

/** Reads the link's query; null when either part is missing or malformed (no server could accept it). */
export function parsePasswordLink(search: URLSearchParams): PasswordLink | null {
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  if (!USER_ID.test(userId) || !Number.isSafeInteger(Number(userId)) || !TOKEN.test(token)) return null;
  return { userId: Number(userId), token };
}
