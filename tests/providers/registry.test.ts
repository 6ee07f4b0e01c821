/** The panel shows every folder of src/resources: its declarations come from the folders (a glob), not from a list. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { panelResources } from '../../src/resources';

it("has each folder's declaration, in folder-name order", async () => {
  const dir = path.resolve(import.meta.dirname, '../../src/resources');
  const folders = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const declared = await Promise.all(folders.map(async (f) => Object.values(await import(`../../src/resources/${f}/index.tsx`))));
  expect(panelResources.map((r) => r.name)).toEqual(declared.flat().map((r) => (r as { name: string }).name));
  expect(panelResources.length).toBe(folders.length);
});
