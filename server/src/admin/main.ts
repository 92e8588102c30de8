// `npm run admin -- <command>`: the operator tool against this region's database (see program.ts; `--help`).
import { buildServices } from '../bootstrap';
import { loadConfig } from '../config';
import type { Services } from '../services';
import type { AdminIo } from './admin-io';
import { runAdmin } from './program';

/** Standard input whole: chunks are joined before decoding, so a character split between two is kept. */
async function readStdinBytes(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function main(): Promise<number> {
  const state: { opened: Promise<Services> | null } = { opened: null };
  const io: AdminIo = {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    // Only what went wrong is logged unless LOG_LEVEL says otherwise; what a command did, it prints.
    services: () => (state.opened ??= buildServices(loadConfig({ LOG_LEVEL: 'error', ...process.env }))),
    readStdin: async () => new TextDecoder().decode(await readStdinBytes()),
    readStdinBytes,
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
