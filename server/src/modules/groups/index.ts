// Groups: the module's public face.
export type { GroupsDeps } from './groups.deps';
export { groupHandlers } from './groups.handlers';
export { sharesVisibleGroup, viewerOf } from './group-visibility.repository';
export {
  GroupChangeRefused,
  addGroupMember,
  createGroup,
  groupFunctions,
  operatorGroupTypes,
  tenantGroups,
} from './groups.setup';
