// sso domain | oidc | saml | show: single sign-on has no API for domains and SAML on purpose (a domain is
// registered only after its owner proved control of it; IdP certificates are exchanged out of band).
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { Option, type Command } from '@commander-js/extra-typings';
import type { SsoKind } from '../../db/column-types';
import { endpointIssues, saveOidcSettings } from '../../modules/integrations';
import { configureSaml, routeSsoDomain } from '../../modules/sso';
import { AdminError } from '../admin-error';
import { tenantName, type AdminIo } from '../admin-io';
import { selectSsoSettings } from '../admin.repository';
import { domain, positiveInt, text, url } from '../parse';

/** Domains anyone can have an address at: no tenant may take their sign-in over. */
const publicMailDomains = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'hotmail.se',
  'telia.com',
  'bol.com.br',
  'uol.com.br',
]);

function readFileArgument(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new AdminError(
      `Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function pemCertificates(paths: string[]): string[] {
  return paths.map((path) => {
    const pem = readFileArgument(path, 'the certificate file');
    try {
      const certificate = new X509Certificate(pem);
      if (new Date(certificate.validTo) < new Date())
        throw new AdminError(`The certificate in ${path} expired on ${certificate.validTo}.`);
    } catch (error) {
      if (error instanceof AdminError) throw error;
      throw new AdminError(`${path} does not hold a PEM certificate.`);
    }
    return pem;
  });
}

export function ssoCommands(program: Command, io: AdminIo): void {
  const sso = program
    .command('sso')
    .description('Single sign-on: which email domains sign in where, and the identity providers');

  sso
    .command('domain')
    .description(
      'Let an email domain sign in with single sign-on at a tenant (only once its owner has proved control of it)',
    )
    .requiredOption('--domain <domain>', 'the email domain, such as school.example', domain)
    .requiredOption('--tenant <id>', 'the tenant whose identity provider signs the domain in', positiveInt())
    .addOption(
      new Option('--kind <kind>', 'how it signs in').choices(['oidc', 'saml', 'skolon'] as const).makeOptionMandatory(),
    )
    .action(async (options) => {
      if (publicMailDomains.has(options.domain))
        throw new AdminError(`${options.domain} is a public mail domain: no tenant may sign it in.`);
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      await routeSsoDomain(services.db, {
        domain: options.domain,
        tenantId: options.tenant,
        kind: options.kind as SsoKind,
      });
      io.out(`${options.domain} signs in with ${options.kind} at ${organisation} (tenant ${options.tenant}).\n`);
    });

  sso
    .command('oidc')
    .description("Set a tenant's OpenID Connect client (no discovery: give every endpoint)")
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .requiredOption('--issuer <url>', "the identity provider's issuer", url())
    .requiredOption('--authorization-endpoint <url>', 'its authorization endpoint', url())
    .requiredOption('--token-endpoint <url>', 'its token endpoint', url())
    .requiredOption('--jwks-uri <url>', 'its JSON Web Key Set', url())
    .requiredOption('--client-id <id>', 'our client id there', text(1, 500))
    .requiredOption(
      '--client-secret-file <path>',
      'a file holding the client secret, or - to read it from standard input (never on the command line)',
    )
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const input = {
        issuer: options.issuer,
        authorizationEndpoint: options.authorizationEndpoint,
        tokenEndpoint: options.tokenEndpoint,
        jwksUri: options.jwksUri,
      };
      const issues = endpointIssues(input, services.config.sso.allowInsecureHttp, services.config.outboundAllowList);
      if (issues.length) throw new AdminError(`${issues.map((i) => `${i.path.slice(1)} ${i.message}`).join('; ')}.`);
      const secret = (
        options.clientSecretFile === '-'
          ? await io.readStdin()
          : readFileArgument(options.clientSecretFile, 'the client secret file')
      ).trim();
      if (!secret) throw new AdminError('The client secret is empty.');
      await saveOidcSettings(services, options.tenant, { ...input, clientId: options.clientId, clientSecret: secret });
      io.out(
        `${organisation} signs in with OIDC at ${options.issuer} as client ${options.clientId} (secret stored encrypted).\n`,
      );
    });

  sso
    .command('saml')
    .description("Set a tenant's SAML identity provider and the certificates its assertions are signed with")
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .requiredOption('--entry-point <url>', "the identity provider's sign-in URL", url())
    .option('--issuer <entityId>', "the identity provider's entity id, when assertions must name it", text(1, 1000))
    .requiredOption(
      '--certificate <files...>',
      'PEM file(s) of the signing certificate(s): several while a certificate rolls over',
    )
    .action(async (options) => {
      const services = await io.services();
      if (!services.config.sso.allowInsecureHttp && !options.entryPoint.startsWith('https:'))
        throw new AdminError('entry-point must be an https URL in production.');
      const organisation = await tenantName(services, options.tenant);
      const idpCertificates = pemCertificates(options.certificate);
      await configureSaml(
        services.db,
        {
          tenantId: options.tenant,
          entryPoint: options.entryPoint,
          idpIssuer: options.issuer ?? null,
          idpCertificates,
        },
        services.now(),
      );
      io.out(`${organisation} trusts ${idpCertificates.length} certificate(s) of ${options.entryPoint}.\n`);
    });

  sso
    .command('show')
    .description("Show a tenant's single sign-on: domains, OIDC client (never its secret), SAML provider")
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const { domains, oidc, saml } = await selectSsoSettings(services.db, options.tenant);
      io.out(`${organisation} (tenant ${options.tenant})\n`);
      io.out(`  domains: ${domains.length ? domains.map((d) => `${d.domain} (${d.kind})`).join(', ') : 'none'}\n`);
      io.out(`  OIDC: ${oidc ? `${oidc.issuer}, client ${oidc.client_id}` : 'not set'}\n`);
      io.out(`  SAML: ${saml ? `${saml.entry_point}, ${saml.idp_certificates.length} certificate(s)` : 'not set'}\n`);
    });
}
