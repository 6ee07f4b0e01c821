// The registries that follow from the files in a folder: the contract's resource entries, the API's
// route modules and the migrations. Each is a plain TypeScript module of static imports, so it reads
// the same under Vite, esbuild (npm start), tsx (npm run dev, the CLI, benchmarks) and vitest, and
// keeps the exact types of what it imports (the resource names, the list keys). `npm start`,
// `npm run dev` and the panel's build rewrite a registry whose folder changed;
// `npm run registry` does it by hand, and tests/server/registry.test.ts fails on a stale one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEADER = '// Written by scripts/registry.mjs from the files beside it (npm run registry): do not edit.';
const PRINT_WIDTH = 170;

/** 'user-promos.ts' -> 'userPromos'; a leading digit gets a prefix: '0004_accounts' -> 'm0004_accounts'. */
const identifierOf = (base) => {
  const name = base.replace(/[-.]([a-z0-9])/g, (_, c) => c.toUpperCase()).replace(/[^\w$]/g, '_');
  return /^\d/.test(name) ? `m${name}` : name;
};

/** An array literal as Prettier prints it: on one line when it fits, else one element a line. */
const arrayOf = (prefix, items, suffix) => {
  const line = `${prefix}[${items.join(', ')}]${suffix}`;
  return line.length <= PRINT_WIDTH ? line : `${prefix}[\n${items.map((i) => `  ${i},\n`).join('')}]${suffix}`;
};

/** The modules of a folder in file-name order, as [base name, identifier]. */
const modulesIn = (dir, keep) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && keep(f, fs.readFileSync(path.join(dir, f), 'utf8')))
    .sort()
    .map((f) => [f.slice(0, -3), identifierOf(f.slice(0, -3))]);

const REGISTRIES = [
  {
    // A resource's contract entry: a file whose default export is `defineResource({...})`.
    dir: 'src/contract/resources',
    keep: (_file, text) => /^export default /m.test(text),
    render: (mods) => [
      ...mods.map(([base, id]) => `import ${id} from './${base}';`),
      ...(mods.length ? [''] : []),
      '/** Every resource declared by a file of its own in this folder, in file-name order. */',
      arrayOf(
        'export const RESOURCE_ENTRIES = ',
        mods.map(([, id]) => id),
        ' as const;',
      ),
    ],
  },
  {
    // A route module: a file with a default export (a Fastify plugin); the helpers beside them have none.
    dir: 'server/routes',
    keep: (_file, text) => /^export default /m.test(text),
    render: (mods) => [
      "import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';",
      ...mods.map(([base, id]) => `import ${id} from './${base}';`),
      '',
      '/** Every API module (a file here with a default export), mounted under /api/v1 in file-name order. */',
      arrayOf(
        'export const apiModules: FastifyPluginAsyncZod[] = ',
        mods.map(([, id]) => id),
        ';',
      ),
    ],
  },
  {
    // A migration: NNNN_name.ts. Its name in the database is the file name without '.ts', and Kysely
    // applies them in name order, so a new one takes the next number.
    dir: 'server/db/migrations',
    keep: (file) => /^\d{4}_\w+\.ts$/.test(file),
    render: (mods) => [
      "import type { Migration } from 'kysely';",
      ...mods.map(([base, id]) => `import * as ${id} from './${base}';`),
      '',
      '/** Every migration by its name, the file name; Kysely applies them in name order. */',
      'export const migrations: Record<string, Migration> = {',
      ...mods.map(([base, id]) => `  '${base}': ${id},`),
      '};',
    ],
  },
];

/** Each registry's path (relative to root) and the text it should have. */
export function registries(root = ROOT) {
  return REGISTRIES.map(({ dir, keep, render }) => ({
    path: path.join(dir, 'index.ts'),
    text: [HEADER, ...render(modulesIn(path.join(root, dir), keep)), ''].join('\n'),
  }));
}

/** Rewrites the registries that differ from their folders (only those, so no build sees a newer file for nothing); answers their paths. */
export function writeRegistries(root = ROOT) {
  const changed = registries(root).filter(({ path: file, text }) => {
    const full = path.join(root, file);
    return !fs.existsSync(full) || fs.readFileSync(full, 'utf8') !== text;
  });
  // Several processes may start at once (tests, two API processes): each file is replaced whole.
  for (const { path: file, text } of changed) {
    const temporary = path.join(root, `${file}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, path.join(root, file));
  }
  return changed.map((r) => r.path);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of writeRegistries()) console.log(`wrote ${file}`);
}
