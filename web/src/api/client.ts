import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../../generated/core-api';

/**
 * Every call names the contract version it speaks. The spec makes the header a required parameter of each
 * operation, so the generated types insist on it per call (`params.header`) rather than as a client default.
 */
export const VERSION_HEADER = { 'cosafe-core-api-version': '1' } as const;

export type CoreApiClient = Client<paths>;

/** A client for one region's API host (origin without /core/v1). */
export function createCoreApiClient(baseUrl: string): CoreApiClient {
  return createClient<paths>({
    baseUrl: `${baseUrl.replace(/\/+$/, '')}/core/v1`,
    credentials: 'omit',
    // Looked up per call, not captured once, so tests (and polyfills) can replace the global fetch.
    fetch: (request) => globalThis.fetch(request),
  });
}

const clients = new Map<string, CoreApiClient>();

/** One client per region base URL, created on first use. */
export function clientFor(baseUrl: string): CoreApiClient {
  let client = clients.get(baseUrl);
  if (!client) {
    client = createCoreApiClient(baseUrl);
    clients.set(baseUrl, client);
  }
  return client;
}
