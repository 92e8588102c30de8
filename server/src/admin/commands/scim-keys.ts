// scim-key create
import type { Command } from '@commander-js/extra-typings';
import { issueApiKey } from '../../modules/api-keys';
import { tenantName, type AdminIo } from '../admin-io';
import { positiveInt, text } from '../parse';

export function scimKeyCommands(program: Command, io: AdminIo): void {
  const keys = program
    .command('scim-key')
    .description("Keys a tenant's directory (Entra ID, Okta) provisions users with over SCIM");

  keys
    .command('create')
    .description('Create a SCIM api key for a tenant; the key is printed once and cannot be shown again')
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .requiredOption(
      '--name <name>',
      'what the key is for, such as "Entra ID provisioning" (1-100 characters)',
      text(1, 100),
    )
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const created = await issueApiKey(services, options.tenant, options.name, null);
      io.out(`SCIM api key ${created.apiKeyId} ("${created.name}") for ${organisation}:\n${created.key}\n`);
      io.out(
        `Keep it now: it is stored only as a hash. The directory uses it as a bearer token at ${services.config.publicBaseUrl}/core/v1/scim/v2.\n`,
      );
    });
}
