import type { components } from '../../../../generated/core-api';
import type { Db } from '../../db/database';
import { countTenantsOfUser, selectTenantsOfUser } from './tenants.repository';
import { pageOf, type Page, type PageParams } from './paging';

type Tenant = components['schemas']['Tenant'];

export async function listTenantsOfUser(db: Db, userId: number, params: PageParams): Promise<Page<Tenant>> {
  const [rows, total] = await Promise.all([selectTenantsOfUser(db, userId, params), countTenantsOfUser(db, userId)]);
  const data = rows.map((t) => ({ id: t.id, name: t.name, logoUrl: t.logo_url, websiteUrl: t.website_url, mayAnyUserActivateImOk: t.may_any_user_activate_im_ok }));
  return pageOf(data, total, params);
}
