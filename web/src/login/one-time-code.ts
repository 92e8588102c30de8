export const CODE_LENGTH = 6;

/** What the code input keeps of typed or pasted text: digits only, at most six ("123 456" pastes as 123456). */
export function sanitizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, CODE_LENGTH);
}
