import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ (docs/architecture.md, "Rules the layout keeps"), from the bottom: the neutral
 * files (config, clock, errors, principal, logger…) and db/; then limits/, idempotency/, metrics/
 * and http/ (the framework); then the resource modules; then the composition (services, app,
 * server, main). A file imports only from its own layer or below; a resource module reaches http/
 * only from its *.routes.ts; nothing in src/ reaches indexer/, scripts/ or test/.
 */
const RESOURCES = [
  'accounts',
  'catalog',
  'credits',
  'demo',
  'payments',
  'search',
  'sellers',
  'stock',
  'system',
  'tools',
  'web',
];
const COMPOSITION = ['services', 'app', 'server', 'main', 'feeds-main'];
const folder = (names) => ({
  regex: `(^|/)(${names.join('|')})/`,
  message: 'imports run one way: down the layers (eslint.config.js)',
});
const file = (names) => ({
  regex: `(^|/)(${names.join('|')})\\.js$`,
  message: 'the composition is on top: nothing below imports it (eslint.config.js)',
});
const outside = {
  regex: '(^|/)(indexer|scripts|test)/',
  message: 'src/ stands on its own: it never imports the indexer, scripts or tests',
};
const layer = (files, ignores, banned) => ({
  files,
  ...(ignores.length ? { ignores } : {}),
  rules: { 'no-restricted-imports': ['error', { patterns: banned }] },
});

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'web/dist', 'test-output', '.data', '.cache', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through src/config.ts only.' },
      ],
    },
  },
  {
    files: ['src/config.ts', 'test/**', 'scripts/**', 'vitest.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  layer(
    ['src/*.ts', 'src/db/**'],
    COMPOSITION.map((n) => `src/${n}.ts`),
    [folder(['http', 'limits', 'idempotency', 'metrics', ...RESOURCES]), file(COMPOSITION), outside],
  ),
  layer(
    ['src/limits/**', 'src/idempotency/**', 'src/metrics/**'],
    [],
    [folder(['http', ...RESOURCES]), file(COMPOSITION), outside],
  ),
  layer(['src/http/**'], [], [folder(RESOURCES), file(COMPOSITION), outside]),
  layer(
    RESOURCES.map((n) => `src/${n}/**`),
    RESOURCES.map((n) => `src/${n}/**/*.routes.ts`),
    [folder(['http']), file(COMPOSITION), outside],
  ),
  layer(
    RESOURCES.map((n) => `src/${n}/**/*.routes.ts`),
    [],
    [file(COMPOSITION), outside],
  ),
);
