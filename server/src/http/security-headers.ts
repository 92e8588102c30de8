// The security headers every answer of the app carries (helmet's defaults, as app.ts sets them), taken once from
// helmet itself, for the answers written before Express: refusals at the door (admission.ts) and the HTTP parser's
// (error-shapes.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

let headers: Readonly<Record<string, string>> | null = null;

export function securityHeaders(): Readonly<Record<string, string>> {
  if (headers) return headers;
  const taken: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (taken[name] = String(value)),
    removeHeader: (name: string) => void delete taken[name],
  };
  helmet()({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  headers = Object.freeze(taken);
  return headers;
}
