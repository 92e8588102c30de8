import type { components } from '../../../../generated/core-api';
import type { Db } from '../../db/database';
import { selectTenantsOfUser } from './tenants.repository';
import { pageOf, pageRows, type Page, type PageParams } from '../../shared/paging';

type Tenant = components['schemas']['Tenant'];

export async function listTenantsOfUser(db: Db, userId: number, params: PageParams): Promise<Page<Tenant>> {
  const { rows, total } = pageRows(await selectTenantsOfUser(db, { userId, ...params }));
  const data = rows.map((t) => ({
    id: t.id,
    name: t.name,
    logoUrl: t.logo_url,
    websiteUrl: t.website_url,
    mayAnyUserActivateImOk: t.may_any_user_activate_im_ok,
  }));
  return pageOf(data, total, params);
}
