import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { REGION_TEMPLATE } from './region-template';
import { SHARED_BUILD } from './shared-build';

export default async function globalTeardown(): Promise<void> {
  const dist = process.env[SHARED_BUILD];
  // Only the build the set-up made (a build handed in from outside stays).
  if (dist && /sign-in-e2e-build-/.test(dirname(dist))) rmSync(dirname(dist), { recursive: true, force: true });
  const template = process.env[REGION_TEMPLATE];
  if (template && /sign-in-e2e-region-/.test(dirname(template)))
    rmSync(dirname(template), { recursive: true, force: true });
}
