/**
 * Brotli and gzip copies written beside each built file at build time, so the server sends them as
 * they are (@fastify/static's `preCompressed`) instead of compressing on every request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
/** Below about a packet, an encoded copy saves nothing worth a second file. */
export const MIN_COMPRESSED_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Writes `FILE.br` and `FILE.gz` beside each compressible file (paths relative to `dir`). */
export async function precompressFiles(dir: string, files: readonly string[]): Promise<void> {
  await Promise.all(
    files
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const full = path.join(dir, file);
        const data = await fs.readFile(full);
        if (data.length < MIN_COMPRESSED_BYTES) return;
        // Once per build, so the slowest and smallest settings.
        const [br, gz] = await Promise.all([
          brotli(data, {
            params: {
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
          gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
        ]);
        await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
      }),
  );
}

/** The Vite plugin: precompresses what the build wrote (index.html included). */
export const precompress = (): Plugin => ({
  name: 'precompress',
  apply: 'build',
  async writeBundle(options, bundle) {
    await precompressFiles(options.dir!, Object.keys(bundle));
  },
});
