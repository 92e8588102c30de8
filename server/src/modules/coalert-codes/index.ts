// coAlert codes: the module's public face (issued and managed by operators).
export {
  issueCoalertCode,
  listCoalertCodes,
  newCoalertCode,
  revokeCoalertCode,
  type IssuedCode,
} from './coalert-codes.service';
