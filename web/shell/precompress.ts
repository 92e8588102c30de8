// Brotli and gzip copies of the build's text files, made once at build time with node:zlib (issue 27 §2): the host
// sends `<file>.br` or `<file>.gz` to a browser that takes it (web/deploy: gzip_static, and a map on
// Accept-Encoding for Brotli), at the strongest settings, and never compresses on the fly.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** The kinds of file worth compressing (images other than SVG are compressed already). */
const COMPRESSIBLE = /\.(?:js|css|html|json|svg|txt|webmanifest)$/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` that they make smaller (in zlib's
 * thread pool, side by side: Brotli at quality 11 is the slow part of a build).
 */
export async function precompress(dir: string): Promise<{ file: string; bytes: number; br: number; gz: number }[]> {
  const files = (await readdir(dir, { recursive: true, encoding: 'utf8' })).filter(
    (file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite'),
  );
  return Promise.all(
    files.map(async (file) => {
      const content = await readFile(join(dir, file));
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipped(content, { level: 9 }),
      ]);
      if (br.length < content.length) await writeFile(join(dir, `${file}.br`), br);
      if (gz.length < content.length) await writeFile(join(dir, `${file}.gz`), gz);
      return { file, bytes: content.length, br: br.length, gz: gz.length };
    }),
  );
}

/** The plugin: runs after every other step that writes files into the build (place it last). */
export function precompressBuild(): Plugin {
  let outDir = '';
  return {
    name: 'sign-in-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      async handler(options) {
        await precompress(options.dir ?? outDir);
      },
    },
  };
}
