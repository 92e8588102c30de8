// The embedded database's share of a region's memory is bounded: its buffer cache lives in the process's
// WebAssembly memory, which never shrinks, so PostgreSQL's default of 128 MB would stay resident for good.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, pgliteSharedBuffers } from '../../src/db/database';

jest.setTimeout(60_000);

test.each([
  ['in memory', null],
  ['in a data directory (as npm start runs it)', 'dir'],
])('PGlite %s runs with a buffer cache of 16 MB, not the 128 MB initdb writes', async (_label, kind) => {
  const dir = kind ? mkdtempSync(join(tmpdir(), 'core-pglite-memory-')) : null;
  const handle = await openDatabase({ dataDir: dir });
  try {
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(handle.db);
    expect(pgliteSharedBuffers).toBe('16MB');
    expect(rows[0].shared_buffers).toBe('16MB');
  } finally {
    await handle.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});
