// External communication (messages to external groups by email, SMS and voice): the module's public face.
export type { ExternalCommunicationDeps } from './external-communication.deps';
export { externalCommunicationHandlers } from './external-communication.handlers';
export { confirmationRouter } from './confirmation-page';
export { externalMessageDeliverJob } from './external-communication.service';
export { deliverExternalMessage } from './external-communication.delivery';
export { recordCeilingLift } from './external-communication.ceiling';
export {
  SetupRefused,
  addRecipient,
  createCecGroup,
  createTemplate,
  deleteCecGroup,
  deleteTemplate,
  importRecipients,
  listCecGroupsWithMembers,
  listRecipients,
  listTemplates,
  removeRecipient,
  renameCecGroup,
  senderSettingsOf,
  setSenderSettings,
  updateTemplate,
  type ImportReport,
} from './external-communication.setup';
export {
  checkPhone as checkRecipientPhone,
  decodeRecipientsFile,
  recipientFileEncoding,
  validEmail as validRecipientEmail,
  type RecipientFileEncoding,
} from './recipients-csv';
