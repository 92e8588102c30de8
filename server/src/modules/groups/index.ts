// Groups: the module's public face.
export type { GroupsDeps } from './groups.deps';
export { groupHandlers } from './groups.handlers';
export { seesUser } from './groups.service';
export {
  GroupChangeRefused,
  addGroupMember,
  createGroup,
  groupFunctions,
  operatorGroupTypes,
  tenantGroups,
} from './groups.setup';
