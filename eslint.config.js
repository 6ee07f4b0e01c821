// `npm run lint`: syntax-level rules over panel, API, tests, scripts and benchmarks, without type
// information so that it stays fast (the type checks are `npm run typecheck`).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', 'data/', 'coverage/', 'tests/e2e/artifacts/'] },
  // A disable comment that no longer suppresses anything fails the lint, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // A leading underscore names what is dropped on purpose; `{ dropped, ...rest }` keeps the rest.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['tests/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.vitest } },
  },
  // `any` where code is generic over a library's invariant type parameters, per area:
  {
    // Query helpers shared by many tables and migrations run over any database (`Kysely<any>`, `ExpressionBuilder<any, any>`).
    files: ['server/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Form parts shared by every schema take react-hook-form's `Control<any>`/`UseFormReturn<any>` and lazy pages
    // `ComponentType<any>`; the data provider reads JSON answers. The contract and the pages are typed throughout.
    files: ['src/{components,providers,features,resources}/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests, benchmarks and scripts read the API's JSON answers untyped.
    files: ['tests/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
