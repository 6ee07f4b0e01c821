import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
// With its extension, as Vite's native config loader (a future default) requires.
import { COLOR_SCHEME_BOOT } from './src/contract/colorSchemeBoot';
import { antdStyles } from './scripts/antdStyles.js';
import { builtThemesDefine } from './scripts/builtThemes.js';
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

// The contract is declarations only (schemas, constants, messages), and the shared components and
// features only define components and hooks: a module of them whose exports nothing uses is left
// out, so that a page importing one thing from a barrel (features/hierarchy) does not load the
// dialogs and forms beside it, and the first load carries no zod schemas when no form is on screen.
const CONTRACT = /[\\/]src[\\/](contract|features|components)[\\/].*\.tsx?$/;
const contractWithoutSideEffects = (): Plugin => ({
  name: 'contract-without-side-effects',
  transform: { filter: { id: CONTRACT }, handler: () => ({ moduleSideEffects: false }) },
});

// antd's useToken hands useCacheToken a new `cssVar` options object on every call, so that its
// WeakMap-cached flattening misses and every component instance hashes those options again (a tenth
// of the first list's render): one object per prefix and key instead.
const ANTD_USE_TOKEN = /[\\/]antd[\\/]es[\\/]theme[\\/]useToken\.js$/;
const CSS_VAR_OPTIONS = /cssVar: cssVar && \{\s*prefix: cssVar\.prefix,\s*key: cssVar\.key,\s*unitless,\s*ignore,\s*preserve\s*\}/;
const antdTokenOptions = (): Plugin => ({
  name: 'antd-token-options',
  transform: {
    filter: { id: ANTD_USE_TOKEN },
    handler(code) {
      if (!CSS_VAR_OPTIONS.test(code)) throw new Error('antd/es/theme/useToken.js changed: review antdTokenOptions in vite.config.ts');
      const memo = `const cssVarOptions = new Map();
const cssVarOptionsOf = (prefix, key) => {
  const id = prefix + ' ' + key;
  let options = cssVarOptions.get(id);
  if (!options) cssVarOptions.set(id, (options = { prefix, key, unitless, ignore, preserve }));
  return options;
};
`;
      return {
        code: code
          .replace(CSS_VAR_OPTIONS, 'cssVar: cssVar && cssVarOptionsOf(cssVar.prefix, cssVar.key)')
          .replace('export default function useToken()', `${memo}export default function useToken()`),
        map: null,
      };
    },
  },
});

// rc-table measures the scrollbar's width when a table mounts, by adding an element and a stylesheet
// to the page and reading their layout: a full style and layout pass in the middle of the first
// list's commit (11-24 ms), and a second render of the table with the answer. Only a fixed header or
// a sticky one uses that width; the panel's tables have neither, so they skip the measure.
const RC_TABLE = /[\\/]rc-table[\\/]es[\\/]Table\.js$/;
const SCROLLBAR_MEASURE = 'if (!tailor || !useInternalHooks) {';
const rcTableScrollbarMeasure = (): Plugin => ({
  name: 'rc-table-scrollbar-measure',
  transform: {
    filter: { id: RC_TABLE },
    handler(code) {
      if (code.split(SCROLLBAR_MEASURE).length !== 2) throw new Error('rc-table/es/Table.js changed: review rcTableScrollbarMeasure in vite.config.ts');
      return { code: code.replace(SCROLLBAR_MEASURE, 'if ((fixHeader || isSticky) && (!tailor || !useInternalHooks)) {'), map: null };
    },
  },
});

// The contract's resource registry follows its folder (scripts/registry.mjs): a new entry is in it before the build reads it.
const registries = (): Plugin => ({ name: 'registries', buildStart: () => void writeRegistries() });

// The first load's code goes into a few chunks by package family and the panel's own, so a release
// that changes only the panel's code leaves the vendors' cached, and the first load is a handful of
// requests rather than one per shared module. Lazily loaded code is grouped where nearly every page
// needs the same: zod; the list table with its controls and icons (every list); the form stack
// (every dialog). The rest Rolldown splits by the pages that share it, so a page loads what it draws.
// Groups take modules in this order (earlier first), with the dependencies of what they capture
// that no earlier group took.
const CHUNK_GROUPS: Array<{ name: string; test: RegExp; initial?: true }> = [
  { name: 'react', initial: true, test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'antd', initial: true, test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/ },
  { name: 'refine', initial: true, test: /node_modules[\\/](@refinedev|@tanstack)[\\/]/ },
  { name: 'vendor', initial: true, test: /node_modules[\\/]/ },
  { name: 'app', initial: true, test: /[\\/]src[\\/]/ },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
  {
    name: 'lists',
    test: /[\\/]src[\\/]components[\\/](DataTable[\\/](?!DateRangeFilter)|export[\\/])|node_modules[\\/](@ant-design[\\/]icons(-svg)?|rc-table|rc-select|rc-tree|rc-pagination|rc-virtual-list|rc-checkbox|compute-scroll-into-view|scroll-into-view-if-needed)[\\/]|antd[\\/]es[\\/](table|pagination|select|tree|checkbox|radio|input|descriptions|card|empty|grid)[\\/]/,
  },
  {
    name: 'forms',
    test: /[\\/]src[\\/]components[\\/]form[\\/]|node_modules[\\/](react-hook-form|@hookform|@refinedev[\\/]react-hook-form|rc-picker|rc-input-number|@rc-component[\\/]mini-decimal|dayjs|rc-switch)[\\/]|antd[\\/]es[\\/](form|date-picker|input-number|switch)[\\/]/,
  },
];

export default defineConfig({
  plugins: [
    colorSchemeBoot(),
    registries(),
    leaveOut(),
    axiosWithoutFetch(),
    contractWithoutSideEffects(),
    antdTokenOptions(),
    rcTableScrollbarMeasure(),
    antdStyles(fileURLToPath(new URL('./src', import.meta.url))),
    react(),
    precompress(),
  ],
  // The default theme's and the shipped presets' antd tokens, derived here rather than in each browser.
  define: builtThemesDefine(),
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
          groups: CHUNK_GROUPS.map(({ name, test, initial }, i) => ({
            name,
            test,
            priority: CHUNK_GROUPS.length - i,
            ...(initial ? { tags: ['$initial' as const] } : {}),
          })),
        },
      },
    },
  },
});
