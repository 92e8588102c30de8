// Push tokens: the module's public face.
export { pushTokensHandlers } from './push-tokens.handlers';
