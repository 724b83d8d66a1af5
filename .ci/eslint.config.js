// Flat eslint config for the extension (plain JavaScript: ES modules in the
// service worker and the popup, classic scripts for the in-page kernel), and
// the walker's page-world script.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['extension/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.serviceworker, chrome: 'readonly' },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error',
        { property: 'innerHTML', message: 'build DOM with textContent and createElement' },
        { property: 'outerHTML', message: 'build DOM with textContent and createElement' }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      // A body on the next line needs braces: a comment between `if (…)`
      // and its statement once swallowed the alarm handler's body.
      curly: ['error', 'multi-line'],
    },
  },
  {
    // The in-page kernel: classic scripts injected in order into a page's
    // isolated world, each adding its part to globalThis.__gripKernel__ and
    // declaring nothing else globally; and the page-world script
    // (extension/page/), which declares nothing globally either.
    files: ['extension/kernel/**/*.js', 'extension/page/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { ...globals.browser },
    },
    rules: {
      'no-implicit-globals': 'error',
      strict: ['error', 'function'],
    },
  },
  {
    // The walker's observer (walk/world.js): a classic script the walker
    // evaluates over CDP in an isolated world of its own in each page.
    files: ['walk/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...globals.browser },
    },
    rules: {
      'no-implicit-globals': 'error',
    },
  },
];
