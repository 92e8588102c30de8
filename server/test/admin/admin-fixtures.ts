// Runs operator commands in-process against a test file's services, capturing what they print.
import { runAdmin } from '../../src/admin/program';
import type { TestContext } from '../support/context';

export interface AdminRun {
  code: number;
  out: string;
  err: string;
}

export function adminRunner(ctx: TestContext) {
  return async (argv: string[], stdin: string | Uint8Array = ''): Promise<AdminRun> => {
    const run = { code: 0, out: '', err: '' };
    run.code = await runAdmin(argv, {
      out: (text) => void (run.out += text),
      err: (text) => void (run.err += text),
      services: async () => ctx.services,
      readStdin: async () => (typeof stdin === 'string' ? stdin : new TextDecoder().decode(stdin)),
      readStdinBytes: async () => (typeof stdin === 'string' ? Buffer.from(stdin) : stdin),
    });
    return run;
  };
}

/** A refusal: exit 1, one clear line on stderr that says `expected`, nothing printed as success, no stack trace. */
export function expectRefused(run: AdminRun, expected: string | RegExp): void {
  expect(run.code).toBe(1);
  expect(run.out).toBe('');
  expect(run.err).toMatch(
    typeof expected === 'string' ? new RegExp(expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : expected,
  );
  expect(run.err).toMatch(/^error: /);
  expect(run.err).not.toMatch(/\n\s+at /);
}
