// Contacts: the module's public face.
export type { ContactsDeps } from './contacts.deps';
export { contactHandlers } from './contacts.handlers';
