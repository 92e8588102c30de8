import type { components } from '../../../generated/core-api';
import { call } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';

export type Session = components['schemas']['Session'];
export type SessionFactors = components['schemas']['SessionFactors'];

export async function createPasswordSession(client: CoreApiClient, email: string, password: string): Promise<Session> {
  const { data } = await call(() =>
    client.POST('/sessions', {
      params: { header: VERSION_HEADER },
      body: { grantType: 'password', email, password },
    }),
  );
  return data;
}
