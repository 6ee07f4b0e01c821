// The API as one JavaScript module (esbuild, packages left as imports), so `npm start` runs plain
// Node: loading the TypeScript sources through tsx at every start costs about 50 MB of resident memory.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { writeRegistries } from './registry.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Beside dist/ (the panel): the server finds the panel at ../dist from its own module.
export const SERVER_BUILD_DIR = path.join(ROOT, 'dist-server');

/** Builds server/main.ts into dist-server/main.mjs (about a second); answers the module's path. */
export function buildServer() {
  // A route module or migration added since the last start is in its registry before the bundle reads it.
  writeRegistries(ROOT);
  const result = buildSync({
    entryPoints: [path.join(ROOT, 'server/main.ts')],
    outdir: SERVER_BUILD_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    write: false,
  });
  // The SQLite reader threads load their module by URL beside the server's.
  const files = [
    ...result.outputFiles.map((f) => ({ path: f.path, contents: f.contents })),
    { path: path.join(SERVER_BUILD_DIR, 'sqliteReaderWorker.mjs'), contents: fs.readFileSync(path.join(ROOT, 'server/db/sqliteReaderWorker.mjs')) },
  ];
  fs.mkdirSync(SERVER_BUILD_DIR, { recursive: true });
  // Several processes may start at once (tests, two API processes): each file is replaced whole.
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  return path.join(SERVER_BUILD_DIR, 'main.mjs');
}
