/**
 * The registries follow their folders (scripts/registry.mjs): the committed ones are what the script
 * writes from the files there, and a file added to a folder by the recipe's names is picked up. The
 * panel's declarations come from its folders by Vite's glob (tests/providers/layering.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registries } from '../../scripts/registry.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['src/contract/resources', 'server/routes', 'server/db/migrations'];

describe('the registries', () => {
  it('are what scripts/registry.mjs writes from their folders (else: npm run registry)', () => {
    for (const { path: file, text } of registries(ROOT)) expect(fs.readFileSync(path.join(ROOT, file), 'utf8'), file).toBe(text);
  });

  it("pick up a new resource's contract entry, route module and migration by their files, migrations in name order", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-'));
    try {
      for (const folder of FOLDERS) fs.cpSync(path.join(ROOT, folder), path.join(root, folder), { recursive: true });
      const recipe = path.join(ROOT, 'tests/recipe/tariffs');
      fs.copyFileSync(path.join(recipe, 'contract.ts'), path.join(root, 'src/contract/resources/tariffs.ts'));
      fs.copyFileSync(path.join(recipe, 'server.ts'), path.join(root, 'server/routes/tariffs.ts'));
      fs.copyFileSync(path.join(recipe, 'migration.ts'), path.join(root, 'server/db/migrations/0099_tariffs.ts'));
      const [contract, routes, migrations] = registries(root).map((r) => r.text);
      expect(contract).toContain("import tariffs from './tariffs';");
      expect(contract).toMatch(/RESOURCE_ENTRIES = \[.*\btariffs\b.*\] as const/s);
      expect(routes).toContain("import tariffs from './tariffs';");
      expect(routes).toMatch(/apiModules: FastifyPluginAsyncZod\[\] = \[[^\]]*\btariffs\b/s);
      // The names Kysely records stay the file names, so a database migrated before keeps its history.
      const names = [...migrations.matchAll(/^ {2}'(\w+)': /gm)].map((m) => m[1]);
      expect(names).toEqual(
        fs
          .readdirSync(path.join(root, 'server/db/migrations'))
          .filter((f) => /^\d{4}_/.test(f))
          .map((f) => f.slice(0, -3))
          .sort(),
      );
      expect(names.at(-1)).toBe('0099_tariffs');
      // A helper beside the route modules (no default export) is no module.
      expect(routes).not.toContain("from './crud'");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
