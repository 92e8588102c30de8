// coAlert codes: the module's public face (issued and managed by operators).
export type { CoalertCodesDeps } from './coalert-codes.deps';
export {
  issueCoalertCode,
  listCoalertCodes,
  newCoalertCode,
  revokeCoalertCode,
  type IssuedCode,
} from './coalert-codes.service';
