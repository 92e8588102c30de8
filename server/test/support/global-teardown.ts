import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const file = process.env.CORE_TEST_PGLITE_SNAPSHOT;
  if (file) rmSync(file, { force: true });
}
