// Demo organisation data (development only), on top of the demo tenants and users of seed.ts: administrators,
// groups of every type (one crossOrg group shared by the region's two tenants), group functions and members,
// meeting rooms and contacts. Runs once, right after the tenants and users are created.
import type { RegionId } from '../config';
import type { Services } from '../services';
import type { Executor } from '../db/database';
import type { GroupFunction, GroupType } from '../db/column-types';
import { demoTenantsFor, demoUsersFor } from './demo-people';
import {
  addGroupTenant,
  insertContacts,
  insertGroup,
  insertGroupFunctions,
  insertGroupMember,
  insertMeetingRooms,
  makeTenantAdmin,
  tenantsWithAccountByName,
  usersByEmail,
} from './seed.repository';

interface DemoGroup {
  name: string;
  type: GroupType;
  /** Index of the owning tenant; partners take part too (crossOrg). */
  tenant: number;
  partners?: number[];
  functions: GroupFunction[];
  /** email → [tenant index the user is a member through, is group admin] */
  members: [string, number, boolean][];
}

const europe = ['eu-north-1', 'se-sto'];

function demoGroupsFor(region: RegionId): DemoGroup[] {
  if (europe.includes(region)) {
    return [
      {
        name: 'Crisis team',
        type: 'default',
        tenant: 0,
        functions: ['checklists', 'documents', 'im_ok'],
        members: [
          ['anna@demo.test', 0, true],
          ['erik@demo.test', 0, false],
          ['maria@demo.test', 0, false],
        ],
      },
      {
        name: 'Caretakers',
        type: 'default',
        tenant: 0,
        functions: ['lone_worker_timer', 'panic_button'],
        members: [['erik@demo.test', 0, true]],
      },
      {
        name: 'Management',
        type: 'hidden',
        tenant: 0,
        functions: ['documents'],
        members: [['anna@demo.test', 0, true]],
      },
      {
        name: 'CoAlert responders',
        type: 'coAlert',
        tenant: 0,
        functions: ['im_ok'],
        members: [['erik@demo.test', 0, false]],
      },
      {
        name: 'Regional crisis coordination',
        type: 'crossOrg',
        tenant: 0,
        partners: [1],
        functions: ['checklists', 'im_ok'],
        members: [
          ['anna@demo.test', 0, true],
          ['sofia@demo.test', 1, false],
          ['maria@demo.test', 1, false],
        ],
      },
      {
        name: 'Ward 3 nurses',
        type: 'default',
        tenant: 1,
        functions: ['checklists', 'panic_button'],
        members: [
          ['sofia@demo.test', 1, true],
          ['maria@demo.test', 1, false],
        ],
      },
      {
        name: 'Night shift',
        type: 'default',
        tenant: 1,
        functions: ['lone_worker_timer'],
        members: [['sofia@demo.test', 1, false]],
      },
    ];
  }
  return [
    {
      name: 'Equipe de crise',
      type: 'default',
      tenant: 0,
      functions: ['checklists', 'documents', 'im_ok'],
      members: [['joao@demo.test', 0, true]],
    },
    { name: 'Direção', type: 'hidden', tenant: 0, functions: ['documents'], members: [['joao@demo.test', 0, true]] },
    {
      name: 'Coordenação regional',
      type: 'crossOrg',
      tenant: 0,
      partners: [1],
      functions: ['im_ok'],
      members: [
        ['joao@demo.test', 0, true],
        ['maria@demo.test', 1, false],
      ],
    },
    {
      name: 'Enfermagem',
      type: 'default',
      tenant: 1,
      functions: ['panic_button', 'lone_worker_timer'],
      members: [['maria@demo.test', 1, false]],
    },
  ];
}

async function seedTenant(
  trx: Executor,
  tenantId: number,
  accountId: number,
  website: string,
  phonePrefix: string,
): Promise<void> {
  await insertMeetingRooms(trx, [
    {
      tenant_id: tenantId,
      name: 'Crisis room',
      url: `${website}/meet/crisis-room`,
      description: 'Standing room for the crisis team.',
      is_active: true,
    },
    {
      tenant_id: tenantId,
      name: 'Daily briefing',
      url: `${website}/meet/daily-briefing`,
      description: 'Morning briefing at 08:00.',
      is_active: true,
    },
    {
      tenant_id: tenantId,
      name: 'Exercise room',
      url: `${website}/meet/exercise-room`,
      description: '',
      is_active: false,
    },
  ]);
  const host = new URL(website).hostname;
  await insertContacts(trx, [
    {
      tenant_id: tenantId,
      account_id: accountId,
      name: 'Support desk',
      title: '',
      email: `support@${host}`,
      phone_number: `${phonePrefix}01`,
      type: 'UserSupport',
    },
    {
      tenant_id: tenantId,
      account_id: accountId,
      name: 'Data protection officer',
      title: 'DPO',
      email: `dpo@${host}`,
      phone_number: `${phonePrefix}02`,
      type: 'DataProtectionOfficer',
    },
  ]);
}

export async function seedOrganisation(services: Services): Promise<void> {
  const { db, config } = services;
  await db.transaction().execute(async (trx) => {
    const tenants = demoTenantsFor(config.region);
    const tenantRows = await tenantsWithAccountByName(
      trx,
      tenants.map((t) => t.name),
    );
    const tenantOf = (index: number) => {
      const row = tenantRows.find((r) => r.name === tenants[index].name);
      if (!row) throw new Error(`demo tenant ${tenants[index].name} is missing`);
      return row;
    };
    const users = demoUsersFor(config.region);
    const userRows = await usersByEmail(
      trx,
      users.map((u) => u.email),
    );
    const userId = (email: string) => userRows.find((u) => u.email === email)!.id;

    for (const u of users.filter((d) => d.admin)) {
      for (const index of u.tenants) await makeTenantAdmin(trx, tenantOf(index).id, userId(u.email));
    }
    for (const [index, t] of tenants.entries()) {
      await seedTenant(
        trx,
        tenantOf(index).id,
        tenantOf(index).account_id,
        t.website,
        europe.includes(config.region) ? '+468000000' : '+551100000',
      );
    }

    for (const g of demoGroupsFor(config.region)) {
      const owner = tenantOf(g.tenant);
      const id = await insertGroup(trx, {
        tenant_id: owner.id,
        account_id: owner.account_id,
        name: g.name,
        type: g.type,
        image_url: null,
      });
      for (const partner of g.partners ?? []) await addGroupTenant(trx, tenantOf(partner).id, id);
      if (g.functions.length) await insertGroupFunctions(trx, id, g.functions);
      for (const [email, via, isAdmin] of g.members) {
        await insertGroupMember(trx, {
          group_id: id,
          user_id: userId(email),
          tenant_id: tenantOf(via).id,
          is_admin: isAdmin,
        });
      }
    }
  });
}
