// What a command may use: where to print, the region's services (opened on first use, so `--help` and bad
// arguments never touch the database) and standard input (for secrets that must not be on the command line).
import type { Services } from '../services';
import { AdminError } from './admin-error';

export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
  services(): Promise<Services>;
  readStdin(): Promise<string>;
}

/** The tenant's name, or a refusal naming the id. */
export async function tenantName(services: Services, tenantId: number): Promise<string> {
  const tenant = await services.db.selectFrom('tenants').select('name').where('id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw new AdminError(`There is no tenant ${tenantId}. \`npm run admin -- tenant list\` shows them.`);
  return tenant.name;
}
