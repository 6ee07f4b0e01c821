/** Builds the panel with Vite when dist/ is missing or older than its sources. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PluginOption } from 'vite';
import { PANEL_DIR } from './app';

const ROOT = path.resolve(PANEL_DIR, '..');
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json', 'scripts/antdStyles.ts', 'scripts/builtThemes.ts'];

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

// The newest source time the last build started from: an edit made during a build still counts.
const STAMP = path.join(PANEL_DIR, '.sources-mtime');
const newestSource = () => Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));

export function panelIsStale(): boolean {
  if (!fs.existsSync(path.join(PANEL_DIR, 'index.html')) || !fs.existsSync(STAMP)) return true;
  return newestSource() > Number(fs.readFileSync(STAMP, 'utf8'));
}

/**
 * A production build with the panel's Vite config, of the panel or of another page (`root`), into
 * its configured folder or `outDir`, with `plugins` added to the config's. Vite takes production
 * from NODE_ENV: under `test` (the test runners start the product so) it would bundle the
 * development builds of React and antd.
 */
export async function viteBuild(root = ROOT, outDir?: string, plugins: PluginOption[] = []) {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build({ root, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn', plugins, build: outDir ? { outDir, emptyOutDir: true } : {} });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Vite's own command in a child process: the server that asks keeps none of the bundler in its memory. */
function viteBuildCommand(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`))));
  });
}

export async function ensurePanelBuilt(log: (message: string) => void): Promise<void> {
  if (!panelIsStale()) return;
  log('Building the panel (vite build)...');
  const sources = newestSource();
  await viteBuildCommand();
  fs.writeFileSync(STAMP, String(sources));
}
