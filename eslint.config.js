import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// The core must stay pure and deterministic: no UI libraries, no DOM, no clocks,
// no randomness, no I/O. These lists are what lint enforces for src/core.
const uiModules = ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@tanstack/*', 'monaco-editor', 'monaco-editor/*', '@monaco-editor/*', 'uplot'];
const impureGlobals = [
  'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'indexedDB', 'fetch', 'XMLHttpRequest',
  'WebSocket', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'requestAnimationFrame',
  'queueMicrotask', 'performance', 'process', 'crypto', 'location', 'Worker', 'self',
].map((name) => ({ name, message: 'src/core is pure: pass this in from the shell.' }));

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'public/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // CommonJS files (the bin) are loaded by require and load the bundle by require.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The bridge (src/bridge) is node: it starts processes and serves HTTP. The page reaches it
    // only over HTTP on its own origin, never by importing it.
    files: ['src/**/*.ts', 'src/**/*.tsx', 'e2e/**/*.ts'],
    ignores: ['src/bridge/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../bridge/*', '../../bridge/*', '../../../bridge/*', '../src/bridge/*', '../../src/bridge/*'], message: 'src/bridge is node only: the page talks to it over HTTP (src/live/bridge.ts).' }] }],
    },
  },
  {
    files: ['src/bridge/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: uiModules, message: 'src/bridge is node: no UI libraries.' },
        { group: ['../app/*', '../state/*', '../features/*', '../editor/*', '../components/*', '../derive/*', '../live/*', '../commands/*'], message: 'src/bridge must not import the page.' },
      ] }],
    },
  },
  {
    // The bridge's HTTP protocol is declared once, for the node bridge and the page alike: types
    // only (so neither side gets the other's code), leaning on nothing but the core's types.
    files: ['src/bridge-protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\.\\./core/)', message: 'src/bridge-protocol leans on the core\'s types only.' }] }],
      'no-restricted-syntax': ['error',
        { selector: "ImportDeclaration[importKind='value']", message: 'src/bridge-protocol is types only: import type.' },
        { selector: 'VariableDeclaration, FunctionDeclaration, ClassDeclaration, TSEnumDeclaration', message: 'src/bridge-protocol is types only: no code.' },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: uiModules, message: 'src/core is pure: no UI libraries.' },
        { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https'], message: 'src/core is pure: no I/O; the shells read files.' },
        { group: ['../../app/*', '../../state/*', '../../features/*', '../../editor/*', '../../components/*', '../../cli/*', '../../bridge/*'], message: 'src/core must not import the shells.' },
      ] }],
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: 'src/core is deterministic: pass a clock in.' },
        { object: 'Math', property: 'random', message: 'src/core is deterministic: pass a seed in.' },
      ],
      'no-restricted-syntax': ['error',
        { selector: "NewExpression[callee.name='Date']", message: 'src/core is deterministic: pass a clock in.' },
      ],
    },
  },
);
