// API keys: the module's public face.
export { apiKeyHandlers } from './api-keys.handlers';
export { issueApiKey, resolveApiKey } from './api-keys.service';
