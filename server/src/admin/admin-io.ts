// What a command may use: where to print, the region's services (opened on first use, so `--help` and bad
// arguments never touch the database) and standard input (for secrets that must not be on the command line).
import { readFile } from 'node:fs/promises';
import type { Services } from '../services';
import { AdminError } from './admin-error';
import { findTenantName } from './admin.repository';

export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
  services(): Promise<Services>;
  readStdin(): Promise<string>;
  /** Standard input as it came, for a file whose encoding the command decides. */
  readStdinBytes(): Promise<Uint8Array>;
}

/** The tenant's name, or a refusal naming the id. */
export async function tenantName(services: Services, tenantId: number): Promise<string> {
  const name = await findTenantName(services.db, tenantId);
  if (name === null)
    throw new AdminError(`There is no tenant ${tenantId}. \`npm run admin -- tenant list\` shows them.`);
  return name;
}

/** Text files an operator hands in (a CSV, a template): `-` is standard input. At most 10 MB. */
export async function readTextArgument(io: AdminIo, path: string, what: string): Promise<string> {
  let text: string;
  try {
    text = path === '-' ? await io.readStdin() : await readFile(path, 'utf8');
  } catch (error) {
    throw new AdminError(
      `Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (Buffer.byteLength(text) > 10 * 1024 * 1024) throw new AdminError(`${what} ${path} is larger than 10 MB.`);
  return text;
}

/** A file's bytes, undecoded (the command knows its encoding): `-` is standard input. At most 10 MB. */
export async function readBytesArgument(io: AdminIo, path: string, what: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = path === '-' ? await io.readStdinBytes() : await readFile(path);
  } catch (error) {
    throw new AdminError(
      `Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (bytes.byteLength > 10 * 1024 * 1024) throw new AdminError(`${what} ${path} is larger than 10 MB.`);
  return bytes;
}
