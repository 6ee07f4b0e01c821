/**
 * Files import downward only: the contract imports nothing of the panel; providers use the contract;
 * components (generic UI, no business) use providers and the contract; features (one folder per
 * domain: accounts, credits, hierarchy...) use those and each other; resources and pages use all of
 * those, never each other (a piece two resources share lives in a feature).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const LAYERS = ['contract', 'providers', 'components', 'features', 'resources', 'pages'] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may import from the others. */
const ALLOWED: Record<Layer, Layer[]> = {
  contract: [],
  providers: ['contract'],
  components: ['contract', 'providers'],
  features: ['contract', 'providers', 'components'],
  resources: ['contract', 'providers', 'components', 'features'],
  pages: ['contract', 'providers', 'components', 'features'],
};

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const layerOf = (file: string): Layer | null => {
  const top = path.relative(SRC, file).split(path.sep)[0];
  return (LAYERS as readonly string[]).includes(top) ? (top as Layer) : null;
};

/** Relative imports of a file (static and dynamic), resolved to absolute paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']*)'/g)].map((m) => m[1]);
  return specs.map((s) => path.resolve(path.dirname(file), s));
}

describe('layering of src/', () => {
  const files = filesUnder(SRC);

  it('finds the layers', () => {
    for (const layer of LAYERS)
      expect(
        files.some((f) => layerOf(f) === layer),
        layer,
      ).toBe(true);
  });

  it.each(LAYERS)('%s imports only from the layers below it (or itself)', (layer) => {
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === layer)) {
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to === null) {
          // Leaving src/ or reaching the app's top-level modules (App, navigation) from a layer is upward too.
          wrong.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
          continue;
        }
        if (to !== layer && !ALLOWED[layer].includes(to)) wrong.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a resource imports nothing from another resource (what two share lives in a feature)', () => {
    const folderOf = (file: string) => path.relative(path.join(SRC, 'resources'), file).split(path.sep)[0];
    const wrong: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === 'resources' && path.dirname(f) !== path.join(SRC, 'resources'))) {
      for (const target of importsOf(file)) {
        if (layerOf(target) === 'resources' && folderOf(target) !== folderOf(file)) wrong.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
