// `npm start` on a port browsers refuse, and `npm run reset` with the data folder moved (DATA_ROOT).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

describe('npm start on a port browsers refuse', () => {
  test.each([
    ['EU_NORTH_1_PORT', 6000],
    ['WEB_PORT', 6667],
    ['DEMO_PLATFORM_PORT', 10080],
  ])('%s=%d stops at once with one line naming the port and why', (name, port) => {
    const work = mkdtempSync(join(tmpdir(), 'core-start-port-'));
    try {
      const result = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs')], {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
        env: { ...process.env, NODE_ENV: 'development', [name]: String(port), DATA_ROOT: join(work, 'data') },
      });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`${name}=${port}`);
      expect(lines[0]).toMatch(/browsers/i);
      expect(existsSync(join(work, 'data'))).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('npm run reset', () => {
  test('removes the data folder DATA_ROOT names, and only that one', () => {
    const work = mkdtempSync(join(tmpdir(), 'core-reset-'));
    try {
      const moved = join(work, 'moved-data');
      mkdirSync(join(moved, 'eu-north-1'), { recursive: true });
      writeFileSync(join(moved, 'eu-north-1', 'marker'), 'x');
      const result = spawnSync(process.execPath, [join(root, 'scripts', 'reset.mjs')], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATA_ROOT: moved },
      });
      expect(result.status).toBe(0);
      expect(existsSync(moved)).toBe(false);
      expect(result.stdout).toContain(moved);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('refuses to remove the repository itself or the filesystem root', () => {
    for (const target of [root, '/']) {
      const result = spawnSync(process.execPath, [join(root, 'scripts', 'reset.mjs')], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATA_ROOT: target },
      });
      expect(result.status).toBe(1);
      expect(existsSync(join(root, 'package.json'))).toBe(true);
    }
  });
});
