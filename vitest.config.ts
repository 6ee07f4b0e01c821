import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { builtThemesDefine } from './scripts/builtThemes.js';

/** The API tests that mock a module (vi.mock) and so need a module graph of their own. */
const MOCKING_SERVER_TESTS = 'tests/server/recipe.test.ts';

/** Three layers (DESIGN.md): provider unit tests, the API over real HTTP, the browser end to end. */
export default defineConfig({
  plugins: [react()],
  // As the build defines it (scripts/builtThemes.ts).
  define: builtThemesDefine(),
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'providers',
          include: ['tests/providers/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Rendered in jsdom beside the other layers, a dialog's whole flow takes seconds.
          testTimeout: 30_000,
          // Refine's router bindings then use the tests' react-router (one router context, as in the bundle).
          server: { deps: { inline: ['@refinedev/react-router'] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: [MOCKING_SERVER_TESTS],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The files share one module graph: the API's modules are loaded once for the layer rather
          // than once per file (a third of the layer's CPU time). Each suite still builds its own app
          // over its own database (tests/server/harness.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // A file that mocks a module of the API: in a module graph of its own.
          name: 'server-isolated',
          include: [MOCKING_SERVER_TESTS],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 240_000,
          // As long as Playwright waits for an element: a busy machine draws a list in seconds, not one.
          expect: { poll: { timeout: 30_000, interval: 100 } },
          // Once more after a failure, on a fresh page: on two cores beside the other layers a step can
          // stall past its timeout. A test that passes only on its retry is named in the report.
          retry: 1,
          setupFiles: ['tests/e2e/retried.ts'],
          fileParallelism: false,
          // The axe sweep's roles run side by side; two at a time leave the cores to the other layer's run.
          maxConcurrency: 2,
        },
      },
    ],
  },
});
