import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
// With its extension, as Vite's native config loader (a future default) requires.
import { COLOR_SCHEME_BOOT } from './src/contract/colorSchemeBoot';
import { antdStyles } from './scripts/antdStyles.js';
import { precompress } from './scripts/precompress.js';
import { writeRegistries } from './scripts/registry.mjs';

const API_TARGET = process.env.API_URL ?? 'http://127.0.0.1:3001';

// The colour scheme's inline script, first in <head> so it runs before anything paints (the API's
// Content-Security-Policy allows it by its hash).
const colorSchemeBoot = (): Plugin => ({
  name: 'color-scheme-boot',
  transformIndexHtml: () => [{ tag: 'script', children: COLOR_SCHEME_BOOT, injectTo: 'head-prepend' }],
});

// Refine and the charts import these for features the panel does not use (MarkdownField, CSV import
// and export, devtools traces in development, charts saved as images); as packages with side effects
// they would be bundled anyway. A stub takes their place and throws if such a feature is ever used.
const LEFT_OUT = ['react-markdown', 'remark-gfm', 'papaparse', 'error-stack-parser', 'html2canvas'];
const STUB = '\0left-out:';
const leaveOut = (): Plugin => ({
  name: 'leave-out',
  apply: 'build',
  enforce: 'pre',
  resolveId: (id) => (LEFT_OUT.includes(id) ? STUB + id : null),
  load(id) {
    if (!id.startsWith(STUB)) return null;
    const message = `${id.slice(STUB.length)} is left out of the panel's bundle (vite.config.ts)`;
    return `const fail = () => { throw new Error(${JSON.stringify(message)}); };
export default new Proxy(fail, { get: fail, apply: fail, construct: fail });`;
  },
});

// Polyfills of what every browser the build targets has (ResizeObserver; WeakMap and Map behind
// side-channel's intrinsics and object-inspect): small modules on the browser's own instead.
const SUBSTITUTES = {
  'resize-observer-polyfill': fileURLToPath(new URL('./scripts/bundle/resizeObserver.js', import.meta.url)),
  'side-channel': fileURLToPath(new URL('./scripts/bundle/sideChannel.cjs', import.meta.url)),
};

// axios' fetch adapter, a sixth of the first load's vendor code, for a client that sends through
// XMLHttpRequest (axios' first choice in a browser): a stub takes its place (scripts/bundle/axiosFetch.js).
const AXIOS_ADAPTERS = /[\\/]axios[\\/]lib[\\/]adapters[\\/]adapters\.js$/;
const axiosWithoutFetch = (): Plugin => ({
  name: 'axios-without-fetch',
  apply: 'build',
  enforce: 'pre',
  resolveId: (source, importer) =>
    source === './fetch.js' && importer && AXIOS_ADAPTERS.test(importer) ? fileURLToPath(new URL('./scripts/bundle/axiosFetch.js', import.meta.url)) : null,
});

// The contract is declarations only (schemas, constants, messages): a module of it whose exports
// nothing uses is left out, so the first load carries no zod schemas when no form is on screen.
const CONTRACT = /[\\/]src[\\/]contract[\\/]/;
const contractWithoutSideEffects = (): Plugin => ({
  name: 'contract-without-side-effects',
  transform: { filter: { id: CONTRACT }, handler: () => ({ moduleSideEffects: false }) },
});

// The contract's resource registry follows its folder (scripts/registry.mjs): a new entry is in it before the build reads it.
const registries = (): Plugin => ({ name: 'registries', buildStart: () => void writeRegistries() });

// Vendor code that the entry loads goes into a few chunks by package family, so a release that
// changes only the panel's code leaves them cached. Vendor code that only lazily loaded pages use is
// not grouped: Rolldown splits it by the pages that share it, so a page loads what it draws. A group
// also takes the dependencies of what it captures that no group before it took.
const INITIAL_VENDORS: Array<[name: string, test: RegExp]> = [
  ['react', /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/],
  ['antd', /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/],
  ['refine', /node_modules[\\/](@refinedev|@tanstack)[\\/]/],
  ['vendor', /node_modules[\\/]/],
];

export default defineConfig({
  plugins: [
    colorSchemeBoot(),
    registries(),
    leaveOut(),
    axiosWithoutFetch(),
    contractWithoutSideEffects(),
    antdStyles(fileURLToPath(new URL('./src', import.meta.url))),
    react(),
    precompress(),
  ],
  resolve: { alias: SUBSTITUTES },
  server: { port: 5173, proxy: { '/api': API_TARGET } },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2500,
    rolldownOptions: {
      // Brotli at its best quality takes most of a build: expected, not worth a warning on each start.
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          // No group for @ant-design/plots: only the chart components import it, so it stays in their
          // chunks; a group would also take what charts share with other lazily loaded code (Babel's
          // helpers) and make the pages that use that load the charts too.
          groups: INITIAL_VENDORS.map(([name, test], i) => ({ name, test, tags: ['$initial' as const], priority: INITIAL_VENDORS.length - i })),
        },
      },
    },
  },
});
