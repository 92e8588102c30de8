// Contacts: the module's public face.
export { contactHandlers } from './contacts.handlers';
