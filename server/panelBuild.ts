/** Builds the panel with Vite when dist/ is missing or older than its sources. */
import fs from 'node:fs';
import path from 'node:path';
import { PANEL_DIR } from './app';

const ROOT = path.resolve(PANEL_DIR, '..');
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json'];

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

export async function ensurePanelBuilt(log: (message: string) => void): Promise<void> {
  if (!panelIsStale()) return;
  log('Building the panel (vite build)...');
  const sources = newestSource();
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  fs.writeFileSync(STAMP, String(sources));
}
