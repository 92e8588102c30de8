import type { components } from '../../../generated/core-api';
import { call } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';

export type RegionProbeResult = components['schemas']['RegionProbeResult'];

export async function probeHash(client: CoreApiClient, hash: string, password: string): Promise<RegionProbeResult> {
  const { data } = await call(() =>
    client.POST('/probes/hash/{hash}', {
      params: { header: VERSION_HEADER, path: { hash } },
      body: { password },
    }),
  );
  return data;
}
