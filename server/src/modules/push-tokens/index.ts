// Push tokens: the module's public face.
export type { PushTokensDeps } from './push-tokens.deps';
export { pushTokensHandlers } from './push-tokens.handlers';
