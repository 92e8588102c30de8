// Invitations: the module's public face.
export type { InvitationsDeps } from './invitations.deps';
export { inviteUser, type InviteInput, type InviteOutcome } from './invite-user';
export {
  adoptDirectoryLanguage,
  invitationJob,
  revokePasswordLinks,
  scheduleInvitation,
  sendInvitation,
  whyNoInvitation,
  type NoInvitation,
} from './invitations.service';
