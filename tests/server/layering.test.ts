/**
 * The API imports downward only: routes -> domain modules -> the database, with the domain errors
 * and the HTTP plugins below the domain. A domain module raises domain errors (server/errors.ts) and
 * knows nothing of routes; the HTTP plugins know nothing of the domain (the app hands the guard what
 * it needs); only route modules and the app register routes; and no two folders import each other,
 * directly or round a loop. A pure scan of the files: no database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '../../server');
const CONTRACT = path.resolve(import.meta.dirname, '../../src/contract');

type Layer = 'errors' | 'db' | 'config' | 'http' | 'domain' | 'routes' | 'bootstrap';

/**
 * Each folder (or top-level file) of server/ and its layer, lowest first. Stated as data so that a new
 * folder has to be placed: the test fails for one missing here.
 */
const LAYER_OF: Record<string, Layer> = {
  errors: 'errors',
  db: 'db',
  config: 'config',
  http: 'http',
  accounts: 'domain',
  announcements: 'domain',
  audit: 'domain',
  auth: 'domain',
  credits: 'domain',
  hierarchy: 'domain',
  jobs: 'domain',
  ledger: 'domain',
  provisioning: 'domain',
  seed: 'domain',
  servers: 'domain',
  settings: 'domain',
  users: 'domain',
  preferences: 'domain',
  notifications: 'domain',
  routes: 'routes',
  app: 'bootstrap',
  main: 'bootstrap',
  cli: 'bootstrap',
  startup: 'bootstrap',
  panelBuild: 'bootstrap',
};

/** What each layer may import besides itself and src/contract. */
const ALLOWED: Record<Layer, Layer[]> = {
  errors: [],
  db: [],
  config: ['db'],
  http: ['errors', 'db', 'config'],
  domain: ['errors', 'db', 'config', 'http'],
  routes: ['errors', 'db', 'config', 'http', 'domain'],
  bootstrap: ['errors', 'db', 'config', 'http', 'domain', 'routes'],
};

/**
 * The parts of server/http a domain module may use: query builders with no route in them (list paging,
 * subtree scoping), and the shapes of a request's view-as parent and API token. The guard, the error handler, rate limits, the input checks and the response
 * headers are the routes' own.
 */
const HTTP_FOR_DOMAIN = ['http/list', 'http/scope', 'http/sessionShape'];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : /\.(ts|mjs)$/.test(e.name) ? [full] : [];
  });
}

/** server/-relative path without extension: 'http/list', 'errors'. */
const unitPath = (file: string) => path.relative(SERVER, file).replace(/\.(ts|mjs|js)$/, '');
/** The folder or top-level file a path belongs to. */
const unitOf = (file: string) => unitPath(file).split(path.sep)[0];

/** Relative imports and re-exports of a file (static and dynamic), resolved to absolute paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']*)'/g)].map((m) => m[1]);
  return specs.map((s) => path.resolve(path.dirname(file), s));
}

const inside = (dir: string, file: string) => !path.relative(dir, file).startsWith('..');

describe('layering of server/', () => {
  const files = filesUnder(SERVER);

  it('places every folder and top-level file in a layer', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units.filter((u) => !(u in LAYER_OF))).toEqual([]);
    expect(Object.keys(LAYER_OF).filter((u) => !units.includes(u))).toEqual([]);
  });

  it('each layer imports only from the layers below it (or itself) and from src/contract', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = LAYER_OF[unitOf(file)];
      for (const target of importsOf(file)) {
        const where = `${path.relative(SERVER, file)} -> ${path.relative(SERVER, target)}`;
        if (!inside(SERVER, target)) {
          if (!inside(CONTRACT, target)) wrong.push(where);
          continue;
        }
        const to = LAYER_OF[unitOf(target)];
        if (to === from) continue;
        if (!ALLOWED[from].includes(to)) wrong.push(where);
        else if (from === 'domain' && to === 'http' && !HTTP_FOR_DOMAIN.includes(unitPath(target))) wrong.push(where);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('only route modules and the app register routes', () => {
    const registers = /\.(?:get|post|put|patch|delete|head|options|all)\(\s*[`'"]\/|\.route\(\s*\{/;
    const wrong = files
      .filter((f) => !['routes', 'bootstrap'].includes(LAYER_OF[unitOf(f)]))
      .filter((f) => registers.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SERVER, f));
    expect(wrong).toEqual([]);
  });

  it('no folders import each other, directly or round a loop', () => {
    const graph = new Map<string, Set<string>>();
    for (const file of files) {
      for (const target of importsOf(file)) {
        if (!inside(SERVER, target) || unitOf(target) === unitOf(file)) continue;
        const edges = graph.get(unitOf(file)) ?? new Set<string>();
        graph.set(unitOf(file), edges.add(unitOf(target)));
      }
    }
    // Tarjan's strongly connected components: a component of more than one folder is a cycle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const cycles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });
});
