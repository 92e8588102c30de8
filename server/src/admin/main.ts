// `npm run admin -- <command>`: the operator tool against this region's database (see program.ts; `--help`).
import { buildServices } from '../bootstrap';
import { loadConfig } from '../config';
import type { Services } from '../services';
import type { AdminIo } from './admin-io';
import { runAdmin } from './program';

async function main(): Promise<number> {
  const state: { opened: Promise<Services> | null } = { opened: null };
  const io: AdminIo = {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    // Only what went wrong is logged unless LOG_LEVEL says otherwise; what a command did, it prints.
    services: () => (state.opened ??= buildServices(loadConfig({ LOG_LEVEL: 'error', ...process.env }))),
    readStdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      return text;
    },
  };
  const code = await runAdmin(process.argv.slice(2), io);
  const services = await state.opened?.catch(() => null);
  if (services) {
    services.notifier.close();
    await services.outbound.close();
    await services.database.close();
  }
  return code;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
