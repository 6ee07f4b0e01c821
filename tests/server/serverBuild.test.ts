/** `npm start` builds the API only when a file it is made from changed (scripts/serverBuild.mjs). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/serverBuild.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-build-'));
const builtAt = () => fs.statSync(path.join(outDir, 'main.mjs')).mtimeMs;

describe('the API build', () => {
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('is made once, kept while its sources are unchanged, and made again after one of them changes', () => {
    const main = buildServer(outDir);
    expect(main).toBe(path.join(outDir, 'main.mjs'));
    const first = builtAt();
    const { inputs } = JSON.parse(fs.readFileSync(path.join(outDir, 'inputs.json'), 'utf8')) as { inputs: string[] };
    // The bundle's own modules, the contract it shares with the panel, and what is copied beside it.
    expect(inputs).toEqual(
      expect.arrayContaining(['server/main.ts', 'server/app.ts', 'src/contract/messages.ts', 'server/db/sqliteReaderWorker.mjs', 'scripts/serverBuild.mjs']),
    );

    buildServer(outDir);
    expect(builtAt(), 'unchanged sources: the build is kept').toBe(first);

    // A source edited after the build (its time moved forward, its text untouched), then put back.
    const source = path.join(ROOT, 'server/main.ts');
    const { atime, mtime } = fs.statSync(source);
    try {
      const later = new Date(Date.now() + 1000);
      fs.utimesSync(source, later, later);
      buildServer(outDir);
      expect(builtAt(), 'a source newer than the build: built again').toBeGreaterThan(first);
    } finally {
      fs.utimesSync(source, atime, mtime);
    }

    // A build without its record of inputs (an older build) is made again.
    const second = builtAt();
    fs.rmSync(path.join(outDir, 'inputs.json'));
    buildServer(outDir);
    expect(builtAt()).toBeGreaterThan(second);
  });
});
