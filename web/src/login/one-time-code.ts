export const CODE_LENGTH = 6;

/** What the code input keeps of typed text: digits only, at most six ("123 456" becomes 123456). */
export function sanitizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

/**
 * The code in pasted or filled-in text: its last run of exactly six digits, so "valid 10 minutes: 518540" and an
 * SMS ending "@login.example.com #518540" both give 518540; without one, the digits as typed (sanitizeCode).
 */
export function codeFromText(text: string): string {
  const sixes = (text.match(/\d+/g) ?? []).filter((run) => run.length === CODE_LENGTH);
  return sixes.at(-1) ?? sanitizeCode(text);
}
