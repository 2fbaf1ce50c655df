// ESLint for the house (docs/decisions/0060-lint-format-and-boundaries.md). Formatting is Prettier's
// (npm run format); import boundaries are dependency-cruiser's (.dependency-cruiser.cjs); this file holds
// the rules about code: promises, `any`, import order, sizes, and a pure domain.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/** Test files and test support: exempt from the size limits (a describe callback holds its tests) and may say `any` (no module boundary). */
const TEST_FILES = ['**/*.test.ts', '**/testing.ts', '**/*-testing.ts', '**/testing/**', 'test/**'];

export default defineConfig(
  globalIgnores([
    'node_modules/',
    'data/',
    'coverage/',
    // Generated: ABIs and bytecode, SQL migrations and their snapshots, composed SDL.
    'contracts/artifacts/',
    'drizzle/migrations/',
    'schema/',
    // Planted import violations for test/boundaries.test.ts.
    'test/fixtures/boundaries/',
  ]),
  {
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'simple-import-sort': simpleImportSort },
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // A leading underscore marks a binding left unused on purpose (`const { secret: _secret, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'simple-import-sort/imports': ['error', { groups: [['^\\u0000', '^node:', '^@?\\w', '^', '^\\.']] }],
      'simple-import-sort/exports': 'error',
      // The same rule as dependency-cruiser's no-import-past-domain-barrel, said where the import is written.
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/domain/*', '!**/domain/index.js'], message: 'Import a domain through its barrel (domain/index.js), not one of its files.' }] }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: TEST_FILES,
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript and CommonJS config: no type information to ask.
    files: ['**/*.{js,cjs,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A domain/ folder is handed the time and its configuration: no clock, no environment (its imports are
    // dependency-cruiser's domain-is-pure). Its tests may do as they like.
    files: ['subgraphs/**/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'A domain is handed the time (a Clock or a Date), it does not read the clock.' },
        { object: 'performance', property: 'now', message: 'A domain is handed the time, it does not read the clock.' },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'A domain is handed its configuration; it does not read the process or its environment.' }],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'A domain is handed the time: new Date() without an argument reads the clock.' },
        { selector: "CallExpression[callee.name='Date']", message: 'A domain is handed the time: Date() reads the clock.' },
      ],
    },
  },
);
