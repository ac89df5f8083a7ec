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
      // Stored objects are JSON documents typed `Doc` (a record of `any`): reading their members is the domain's
      // daily work, so the no-unsafe-* family would flag every rule. joi validates their shape instead.
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
    // The typed kinds (docs/architecture.md §Domain types): their objects have types, so reading an `any` there is a
    // mistake. The goal is all of src/domain, each folder joining this list once its objects are typed.
    files: [
      'src/domain/framework/**/*.ts',
      'src/domain/submission/**/*.ts',
      'src/domain/qualification/**/*.ts',
      'src/domain/agreement/**/*.ts',
      'src/domain/question/**/*.ts',
      'src/domain/plan/**/*.ts',
      'src/domain/contract/**/*.ts',
      'src/domain/transfer/**/*.ts',
      'src/domain/tender/*.ts',
      'src/domain/tender/bids/**/*.ts',
      'src/domain/tender/criteria/**/*.ts',
      'src/domain/tender/lots/**/*.ts',
      'src/domain/tender/questions/**/*.ts',
      'src/domain/tender/awards/**/*.ts',
      'src/domain/tender/cancellations/**/*.ts',
      'src/domain/tender/contracts/**/*.ts',
      'src/domain/tender/auction/**/*.ts',
      'src/domain/tender/complaints/**/*.ts',
      'src/domain/tender/procedures/**/*.ts',
      'src/domain/documents/**/*.ts',
      'src/domain/chronograph/**/*.ts',
      'src/domain/core/**/*.ts',
      'src/ocds/**/*.ts',
    ],
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
