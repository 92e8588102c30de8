import type { PartialHandlers } from '../../http/operations';
import { clientAddress } from '../../shared/client-address';
import { probeHash } from '../sessions';
import type { ProbesDeps } from './probes.deps';

export const probesHandlers = (services: ProbesDeps): PartialHandlers<'probeHash'> => ({
  async probeHash({ path, body, req }) {
    return {
      status: 200,
      body: await probeHash(services, { hash: path.hash, password: body.password, ip: clientAddress(req) }),
    };
  },
});
