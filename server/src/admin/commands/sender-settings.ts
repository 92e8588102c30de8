// sender-settings set | show
import type { Command } from '@commander-js/extra-typings';
import { senderSettingsOf, setSenderSettings } from '../../modules/external-communication';
import { AdminError } from '../admin-error';
import { tenantName, type AdminIo } from '../admin-io';
import { positiveInt, smsSender, text } from '../parse';

export function senderSettingsCommands(program: Command, io: AdminIo): void {
  const sender = program
    .command('sender-settings')
    .description("How a tenant's external-communication messages present their sender");

  sender
    .command('set')
    .description('Set the email display name and the SMS sender id (both are needed before the first message)')
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .option('--email-name <name>', 'the display name of the emails (1-100 characters)', text(1, 100))
    .option('--sms-sender <id>', 'the SMS sender: up to 11 letters and digits, or a phone number', smsSender)
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const current = await senderSettingsOf(services.db, options.tenant);
      const emailName = options.emailName ?? current?.email_sender_name;
      const smsId = options.smsSender ?? current?.sms_sender_id;
      if (!emailName || !smsId)
        throw new AdminError(`${organisation} has no sender settings yet: give both --email-name and --sms-sender.`);
      await setSenderSettings(
        services.db,
        options.tenant,
        { email_sender_name: emailName, sms_sender_id: smsId },
        services.now(),
      );
      io.out(`${organisation}: emails from "${emailName}", SMS from "${smsId}".\n`);
    });

  sender
    .command('show')
    .description("Show a tenant's sender settings")
    .requiredOption('--tenant <id>', 'the tenant', positiveInt())
    .action(async (options) => {
      const services = await io.services();
      const organisation = await tenantName(services, options.tenant);
      const current = await senderSettingsOf(services.db, options.tenant);
      if (!current)
        return void io.out(
          `${organisation} has no sender settings: its external messages are refused (CEC_TENANT_CONFIGURATION_INCOMPLETE) until they are set.\n`,
        );
      io.out(`${organisation}: emails from "${current.email_sender_name}", SMS from "${current.sms_sender_id}".\n`);
    });
}
