// A start that fails says why in one line, naming the step that failed (configuration, secrets, signing keys,
// database, demo data, listening, tracing). In production, and whenever the mode is not known (NODE_ENV itself
// was refused), that line is JSON, like every other log line, so a log pipeline keeps it whole; in development it
// is plain text for a person. No stack trace either way: the reason is the error's message.
// Written by hand rather than with the logger: main.ts reports tracing failures before anything else is loaded.
import { hostname } from 'node:os';
import type { Mode } from './config';

export type StartProblem =
  'configuration' | 'secrets' | 'signing-keys' | 'database' | 'demo-data' | 'listen' | 'tracing' | 'start';

export interface StartupFailure {
  problem: StartProblem;
  error: unknown;
  /** null when the configuration could not tell (JSON is written then). */
  mode: Mode | null;
  /** INSTANCE_ID when the configuration was read; else host and process id. */
  instance?: string;
  /** Every configuration problem, one each. */
  problems?: string[];
}

/** pino's number for fatal, so the line sorts with the others. */
const fatal = 60;

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').slice(0, 2_000);

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return oneLine(
      typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message,
    );
  }
  return oneLine(String(error));
}

/** The line, without its newline. */
export function startupFailureLine(failure: StartupFailure, now = new Date()): string {
  const reason = failure.problems ? failure.problems.join('; ') : reasonOf(failure.error);
  if (failure.mode === 'development' || failure.mode === 'test')
    return `core API failed to start (${failure.problem}): ${reason}`;
  return JSON.stringify({
    level: fatal,
    time: now.getTime(),
    instance: failure.instance ?? `${hostname()}:${process.pid}`,
    problem: failure.problem,
    reason,
    ...(failure.problems ? { problems: failure.problems } : {}),
    msg: `core API failed to start: ${failure.problem}`,
  });
}

/** Writes the line (JSON on stdout, with the other log lines; plain text on stderr) and ends the process. */
export function failStart(failure: StartupFailure): never {
  const line = startupFailureLine(failure);
  const json = line.startsWith('{');
  (json ? process.stdout : process.stderr).write(`${line}\n`);
  process.exit(1);
}
