/** `npm start` runs the API with the flags the harnesses start it with (scripts/apiProcess.mjs). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS } from '../../scripts/apiProcess.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('the API process', () => {
  it("is started by npm start with the harnesses' Node flags", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(['node', ...API_NODE_FLAGS, 'scripts/start.mjs'].join(' '));
  });

  it('caps the old generation below the size where V8 lets it grow to four times what it keeps', () => {
    const cap = API_NODE_FLAGS.map((flag) => /^--max-old-space-size=(\d+)$/.exec(flag)?.[1]).find(Boolean);
    expect(Number(cap)).toBeGreaterThanOrEqual(256);
    expect(Number(cap)).toBeLessThan(1024);
  });
});
