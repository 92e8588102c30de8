// Operator tool: register an email domain for single sign-on, or a tenant's SAML identity provider. There is
// no API for these on purpose: a domain is registered only after its owner proved control of it (a tenant must
// never claim a domain it does not own), and IdP certificates are exchanged out of band.
//
//   node --import tsx server/src/modules/sso/sso-admin-cli.ts domain <domain> <tenantId> <oidc|saml|skolon>
//   node --import tsx server/src/modules/sso/sso-admin-cli.ts saml <tenantId> <entryPointUrl> <idpIssuer|-> <cert.pem>...
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import type { SsoKind } from '../../db/types';
import { upsertSamlSettings, upsertSsoDomain } from './sso.repository';

const usage = 'usage: sso-admin-cli domain <domain> <tenantId> <oidc|saml|skolon> | saml <tenantId> <entryPointUrl> <idpIssuer|-> <cert.pem>...';

async function main(args: string[]): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    const [command, ...rest] = args;
    if (command === 'domain' && rest.length === 3 && ['oidc', 'saml', 'skolon'].includes(rest[2])) {
      await upsertSsoDomain(database.db, { domain: rest[0], tenantId: Number(rest[1]), kind: rest[2] as SsoKind });
      console.log(`${rest[0].toLowerCase()} signs in with ${rest[2]} at tenant ${rest[1]}`);
    } else if (command === 'saml' && rest.length >= 4) {
      const [tenantId, entryPoint, issuer, ...certFiles] = rest;
      new URL(entryPoint);
      const idpCertificates = certFiles.map((file) => readFileSync(file, 'utf8'));
      await upsertSamlSettings(database.db, { tenantId: Number(tenantId), entryPoint, idpIssuer: issuer === '-' ? null : issuer, idpCertificates }, new Date());
      console.log(`tenant ${tenantId} trusts ${idpCertificates.length} certificate(s) of ${entryPoint}`);
    } else {
      console.error(usage);
      process.exitCode = 2;
    }
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
