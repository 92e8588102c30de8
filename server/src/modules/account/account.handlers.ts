import { ApiError } from '../../errors';
import type { PartialHandlers } from '../../http/operations';
import type { AccountDeps } from './account.deps';

const notYet = async (): Promise<never> => {
  throw new ApiError('NOT_IMPLEMENTED', { message: 'This operation is not available yet' });
};

export const accountHandlers = (
  _services: AccountDeps,
): PartialHandlers<
  | 'listSessions'
  | 'deleteOtherSessions'
  | 'changePassword'
  | 'listMemberSessions'
  | 'deleteMemberSessions'
  | 'deleteMemberSession'
> => ({
  listSessions: notYet,
  deleteOtherSessions: notYet,
  changePassword: notYet,
  listMemberSessions: notYet,
  deleteMemberSessions: notYet,
  deleteMemberSession: notYet,
});
