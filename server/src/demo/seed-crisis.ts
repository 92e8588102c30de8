// Demo crisis-communication data (development only), on top of seed.ts and seed-organisation.ts: sender settings,
// external communication groups (people outside the organisation, one person in two groups), templates, and one
// armed personal alarm per region, due in eight hours. Runs once, right after the organisation data.
import type { RegionId } from '../config';
import { armTimer } from '../modules/personal-alarms';
import type { Services } from '../services';
import { demoTenantsFor } from './demo-people';
import {
  findUserByEmail,
  groupIdsByName,
  insertAlarmRecipientGroups,
  insertAlarmRecipientUsers,
  insertExternalContact,
  insertExternalGroup,
  insertExternalGroupMembers,
  insertPersonalAlarm,
  insertSenderSettings,
  insertTemplates,
  tenantsByName,
  userIdsByEmail,
} from './seed.repository';

interface DemoExternalCommunication {
  sender: { email: string; sms: string };
  contacts: { name: string; title: string | null; email: string | null; phone: string | null; groups: number[] }[];
  groups: string[];
  templates: { name: string; content: string }[];
}

const europe = ['eu-north-1', 'se-sto'];

function demoExternalCommunicationFor(region: RegionId, tenant: number): DemoExternalCommunication {
  const n = tenant + 1;
  if (europe.includes(region)) {
    return {
      sender: {
        email: tenant === 0 ? 'Demo Municipality' : 'Demo Hospital',
        sms: tenant === 0 ? 'DemoKommun' : 'DemoSjukhus',
      },
      groups: tenant === 0 ? ['Parents class 3B', 'Suppliers'] : ['Next of kin ward 3', 'Contractors'],
      contacts: [
        {
          name: 'Erik Svensson',
          title: null,
          email: `erik.svensson${n}@example.com`,
          phone: `+4670100000${n}1`,
          groups: [0, 1],
        },
        {
          name: 'Maria Lind',
          title: "Chair of the parents' council",
          email: null,
          phone: `+4670100000${n}2`,
          groups: [0],
        },
        { name: 'Karin Holm', title: null, email: `karin.holm${n}@example.com`, phone: null, groups: [0] },
        {
          name: 'Lars Ek',
          title: 'Account manager',
          email: `lars.ek${n}@example.com`,
          phone: `+4670100000${n}3`,
          groups: [1],
        },
      ],
      templates: [
        {
          name: 'Building closed',
          content:
            'The building is closed today because of a technical fault. Please stay at home until further notice.',
        },
        {
          name: 'Water supply interrupted',
          content: 'Water supply is interrupted until 14:00. Please confirm that you have read this.',
        },
      ],
    };
  }
  return {
    sender: { email: tenant === 0 ? 'Escola Demo' : 'Hospital Demo', sms: tenant === 0 ? 'EscolaDemo' : 'HospDemo' },
    groups: tenant === 0 ? ['Pais turma 3B', 'Fornecedores'] : ['Familiares ala 3', 'Prestadores'],
    contacts: [
      {
        name: 'Ana Souza',
        title: null,
        email: `ana.souza${n}@example.com`,
        phone: `+551190000${n}001`,
        groups: [0, 1],
      },
      { name: 'Pedro Lima', title: 'Gerente', email: `pedro.lima${n}@example.com`, phone: null, groups: [1] },
    ],
    templates: [
      {
        name: 'Escola fechada',
        content: 'A escola está fechada hoje por um problema técnico. Aguarde novas informações.',
      },
    ],
  };
}

/** The armed alarm: [owner email, device, recipient user emails, recipient group names]. */
function demoAlarmFor(region: RegionId): [string, string, string[], string[]] {
  return europe.includes(region)
    ? ['erik@demo.test', 'demo-device-erik', ['anna@demo.test'], ['Crisis team']]
    : ['joao@demo.test', 'demo-device-joao', [], ['Coordenação regional']];
}

export async function seedCrisis(services: Services): Promise<void> {
  const { db, config } = services;
  const now = services.now();
  await db.transaction().execute(async (trx) => {
    const tenants = demoTenantsFor(config.region);
    const rows = await tenantsByName(
      trx,
      tenants.map((t) => t.name),
    );
    for (const [index, t] of tenants.entries()) {
      const tenantId = rows.find((r) => r.name === t.name)?.id;
      if (tenantId === undefined) continue;
      const demo = demoExternalCommunicationFor(config.region, index);
      await insertSenderSettings(trx, {
        tenant_id: tenantId,
        email_sender_name: demo.sender.email,
        sms_sender_id: demo.sender.sms,
      });
      const groupIds: number[] = [];
      for (const name of demo.groups) groupIds.push(await insertExternalGroup(trx, { tenant_id: tenantId, name }));
      for (const { groups, ...contact } of demo.contacts) {
        const id = await insertExternalContact(trx, { tenant_id: tenantId, ...contact });
        await insertExternalGroupMembers(
          trx,
          groups.map((g) => ({ group_id: groupIds[g], contact_id: id, tenant_id: tenantId })),
        );
      }
      await insertTemplates(
        trx,
        demo.templates.map((tpl) => ({ tenant_id: tenantId, ...tpl })),
      );
    }

    const [ownerEmail, deviceId, userEmails, groupNames] = demoAlarmFor(config.region);
    const tenantId = rows.find((r) => r.name === tenants[0].name)?.id;
    const owner = await findUserByEmail(trx, ownerEmail);
    if (tenantId === undefined || !owner) return;
    const dispatchAt = new Date(now.getTime() + 8 * 3_600_000);
    const alarm = await insertPersonalAlarm(trx, {
      tenant_id: tenantId,
      user_id: owner.id,
      device_id: deviceId,
      text: 'Working alone in the boiler room. Call me if I have not checked in.',
      dispatch_at: dispatchAt,
      active: true,
      one_minute_warning: true,
      location_id: null,
      created_at: now,
      updated_at: now,
    });
    const users = userEmails.length ? await userIdsByEmail(trx, userEmails) : [];
    if (users.length)
      await insertAlarmRecipientUsers(
        trx,
        alarm.id,
        users.map((u) => u.id),
      );
    const groups = await groupIdsByName(trx, tenantId, groupNames);
    if (groups.length)
      await insertAlarmRecipientGroups(
        trx,
        alarm.id,
        groups.map((g) => g.id),
      );
    await armTimer(services, trx, alarm);
  });
}
