import pino, { type Logger } from 'pino';

export type { Logger };

// Secrets must never reach the logs: request bodies are not logged at all, URLs are logged without their
// query string, and these paths are censored wherever they appear in logged objects.
export const redactPaths = [
  'password',
  'newPassword',
  '*.password',
  '*.newPassword',
  'token',
  '*.token',
  'code',
  '*.code',
  'key',
  '*.key',
  'clientSecret',
  '*.clientSecret',
  'accessToken',
  'refreshToken',
  '*.accessToken',
  '*.refreshToken',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactPaths, censor: '[redacted]' }, base: undefined }, destination);
}
