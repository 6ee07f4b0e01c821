/**
 * The reliability scripts (scripts/reliability/) as part of `npm test`, on SQLite and on PostgreSQL:
 * the crash test (concurrent credit moves, SIGKILL mid-load, restart, every acknowledged move present
 * exactly once, ledger invariants) and the two-process test (two servers starting at once on an empty
 * database, then moving credits concurrently, the same Idempotency-Key through both). Each runs real
 * server processes, bounded to a few seconds of load.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgUrl } from './harness';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Runs a script to its end; its last line is `<name>: PASS|FAIL {figures}`. */
function runScript(script: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

for (const db of pgUrl ? ['sqlite', 'postgres'] : ['sqlite']) {
  describe(`reliability scripts [${db}]`, () => {
    it('crash test: kill -9 mid-load twice, every acknowledged move present exactly once', { timeout: 240_000 }, async () => {
      const { code, output } = await runScript('scripts/reliability/crash.ts', ['--db', db, '--kills', '2', '--load-ms', '800']);
      console.log(
        output
          .trim()
          .split('\n')
          .find((l) => l.startsWith('crash test')),
      );
      expect(output, output).toMatch(/crash test: PASS/);
      expect(code).toBe(0);
    });

    it('two-process test: two servers start at once and move credits through one ledger', { timeout: 240_000 }, async () => {
      const { code, output } = await runScript('scripts/reliability/two-process.ts', ['--db', db, '--moves', '150']);
      console.log(
        output
          .trim()
          .split('\n')
          .find((l) => l.startsWith('two-process test')),
      );
      expect(output, output).toMatch(/two-process test: PASS/);
      expect(code).toBe(0);
    });
  });
}
