import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import noCrossPackageImport from './lint/no-cross-package-import.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Integration tests and their shared helpers read raw wire JSON, where `any` is the honest type.
    files: ['**/test/**/*.ts', 'packages/testing/src/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    plugins: { a2a: { rules: { 'no-cross-package-import': noCrossPackageImport } } },
    rules: {
      // Packages use each other by name, so each works the same once installed.
      'a2a/no-cross-package-import': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
