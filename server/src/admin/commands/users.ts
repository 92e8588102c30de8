// user invite
import type { Command } from '@commander-js/extra-typings';
import { inviteUser, type NoInvitation } from '../../modules/invitations';
import { AdminError } from '../admin-error';
import type { AdminIo } from '../admin-io';
import { tenantName } from '../admin-io';
import { email, language, phone, positiveInt, text } from '../parse';

const reasons: Record<NoInvitation, string> = {
  'no-membership': 'they are not a member of the tenant',
  'has-password': 'they already have a password (if it is forgotten, they can reset it from the login page)',
  'signs-in-with-sso': 'their email domain signs in with single sign-on',
  deactivated: 'the account is deactivated',
  'inactive-here': 'their membership of the tenant is deactivated by its directory',
};

export function userCommands(program: Command, io: AdminIo): void {
  const user = program.command('user').description('People');

  user
    .command('invite')
    .description(
      'Add a person to a tenant and email them a link to choose their password (valid 30 days); inviting again replaces the link',
    )
    .requiredOption('--tenant <id>', 'the tenant to invite them to', positiveInt())
    .requiredOption('--email <email>', 'their email address (they log in with it)', email)
    .requiredOption('--name <name>', 'their name, for a new account (1-200 characters)', text(1, 200))
    .option('--title <title>', 'their title, for a new account', text(1, 200))
    .option('--phone <number>', 'their mobile number, for a new account (+ and digits)', phone)
    .option('--language <code>', 'the language of the invitation and their messages (sv, en, nl, fi, es, pt)', language)
    .option('--admin', 'make them an administrator of the tenant')
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const outcome = await inviteUser(services, {
        tenantId: options.tenant,
        email: options.email,
        name: options.name,
        title: options.title,
        phone: options.phone,
        language: options.language,
        admin: options.admin,
      });
      const who = `${options.email} (user ${outcome.userId}${outcome.created ? ', new' : ''})`;
      if ('none' in outcome.invitation)
        return void io.out(
          `${who} is a member of ${organisation}; no invitation sent: ${reasons[outcome.invitation.none]}.\n`,
        );
      const sent = await services.jobs.runNow(outcome.invitation.job);
      if (sent.status === 'done')
        return void io.out(`Invitation to ${organisation} sent to ${who}; the link is valid 30 days.\n`);
      if (sent.status === 'failed' || sent.status === 'cancelled')
        throw new AdminError(
          `${who} is a member of ${organisation}, but the invitation was not sent (${sent.lastError ?? sent.status}); invite them again to retry.`,
        );
      const why = sent.running
        ? 'a running instance of the region is sending it'
        : `it could not be sent now (${sent.lastError ?? 'not due yet'})`;
      io.out(`Invitation to ${organisation} for ${who} is queued: ${why}; the region sends it as soon as it can.\n`);
    });
}
