// Flat eslint config for the extension (plain JavaScript, ES modules).
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
    },
  },
];
