// `npm run lint`: typescript-eslint's type-aware recommended rules, above all the promise rules (an un-awaited
// promise in an async handler becomes an unhandled rejection under load), and prettier's formatting check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'scripts/results/**', 'data/**', '.tap/**', '.scratch/**', '.venv/**', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // tap queues the subtests a test file declares and awaits them itself.
        { allowForKnownSafePromises: [{ from: 'package', package: '@tapjs/core', name: 'PromiseWithSubtest' }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Outside the domain (the store, the platform, tests and scripts) stored objects pass as untyped JSON
      // (`StoredDoc`, a record of `any`), whose shape joi checked on the way in: the no-unsafe-* family is on only for
      // the typed domain below.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Koa handlers and port implementations are async by contract even when a body has nothing to await.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore names a member dropped on purpose by destructuring (`const { a: _a, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The domain is typed (docs/architecture.md §Domain types): reading an `any` in it, or in the OCDS views built from
    // it, is a mistake.
    files: ['src/domain/**/*.ts', 'src/ocds/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
    },
  },
  {
    // Test doubles and scripts hand around members of plain objects of closures (stores, gates, group commits).
    files: ['test/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
);
