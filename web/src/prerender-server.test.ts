import { relative, sep } from 'node:path';
import { prerenderServerConfig } from '../shell/prerender-server';

const build = { root: '/app/web', mode: 'production', envDir: '/app/web', cacheDir: '/app/node_modules/.vite' };

test('the prerender server of a build keeps its own cache folder, apart from the development server’s (a build beside npm start left it with “504 Outdated Optimize Dep”)', () => {
  const { cacheDir } = prerenderServerConfig(build);
  expect(cacheDir).toBeDefined();
  const inside = relative(build.cacheDir, cacheDir!);
  // Neither the same folder nor one inside it (the development server empties its deps folder when it re-optimises).
  expect(inside).not.toBe('');
  expect(inside.startsWith('..')).toBe(true);
  expect(relative(cacheDir!, build.cacheDir).startsWith('..')).toBe(true);
  expect(cacheDir!.split(sep)).toContain('.vite-prerender');
});

test('the prerender server reads the build’s root, mode and environment folder, and never discovers dependencies', () => {
  expect(prerenderServerConfig(build)).toMatchObject({
    configFile: false,
    root: build.root,
    mode: build.mode,
    envDir: build.envDir,
    optimizeDeps: { noDiscovery: true, include: [] },
  });
});
