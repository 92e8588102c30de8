// API keys: the module's public face.
export type { ApiKeysDeps } from './api-keys.deps';
export { apiKeyHandlers } from './api-keys.handlers';
export { issueApiKey, resolveApiKey } from './api-keys.service';
