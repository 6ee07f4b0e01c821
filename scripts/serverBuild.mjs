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
const WORKER_SOURCE = 'server/db/sqliteReaderWorker.mjs';
/** What a build read (the bundle's inputs, the worker, this script) and when it started, beside it. */
const MANIFEST = 'inputs.json';

/** Whether the build is newer than every file it was made from (a file gone or edited since: no). */
function isFresh(outDir) {
  try {
    const { startedAt, inputs } = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST), 'utf8'));
    return fs.existsSync(path.join(outDir, 'main.mjs')) && inputs.every((file) => fs.statSync(path.join(ROOT, file)).mtimeMs < startedAt);
  } catch {
    return false;
  }
}

/** Each file replaced whole: several processes may start at once (tests, two API processes). */
function writeWhole(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/**
 * Builds server/main.ts into dist-server/main.mjs (about a second) unless the build is fresh, as
 * every start after the first is (a test run starts the API dozens of times); answers the module's path.
 */
export function buildServer(outDir = SERVER_BUILD_DIR) {
  const main = path.join(outDir, 'main.mjs');
  // A route module or migration added since the last start is in its registry before the bundle reads it.
  writeRegistries(ROOT);
  if (isFresh(outDir)) return main;
  // An edit made during the build is newer than this, so the next start builds again.
  const startedAt = Date.now();
  const result = buildSync({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, 'server/main.ts')],
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  // The SQLite reader threads load their module by URL beside the server's.
  writeWhole(path.join(outDir, 'sqliteReaderWorker.mjs'), fs.readFileSync(path.join(ROOT, WORKER_SOURCE)));
  const inputs = [...Object.keys(result.metafile.inputs), WORKER_SOURCE, path.relative(ROOT, fileURLToPath(import.meta.url))];
  writeWhole(path.join(outDir, MANIFEST), JSON.stringify({ startedAt, inputs }));
  return main;
}
