import type { PartialHandlers } from '../../http/operations';
import { clientAddress } from '../../shared/client-address';
import { probeHash } from '../sessions';

export const probesHandlers: PartialHandlers<'probeHash'> = {
  async probeHash({ path, body, req, services }) {
    return {
      status: 200,
      body: await probeHash(services, { hash: path.hash, password: body.password, ip: clientAddress(req) }),
    };
  },
};
