// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'packages/*/dist/**', 'packages/client/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Nest modules and DTO classes are empty by design; their decorators carry the content.
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-duplicate-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // The storage seam (docs/contributors/architecture.md): in an app only its repositories (a
    // `store/` folder, `*.repository.ts`, `*-store.ts`) reach the database, and only the module that
    // wires the app hands them a connection. Services speak the domain, never storage.
    files: ['apps/**/*.ts'],
    ignores: [
      'apps/*/src/**/store/**',
      'apps/**/*.repository.ts',
      'apps/**/*-store.ts',
      'apps/*/src/app.module.ts',
      '**/*.spec.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'mongoose', message: 'Only a repository reaches the database (the storage seam).' },
            { name: 'mongodb', message: 'Only a repository reaches the database (the storage seam).' },
            { name: '@nestjs/mongoose', message: 'Only a repository reaches the database (the storage seam).' },
            {
              name: '@app/persistence',
              importNames: ['Storage', 'ClaimStorage', 'IdAllocator', 'MemoryStorage', 'insertOnce'],
              message: 'Storage building blocks belong in repositories; a service asks its repository.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='collection']",
          message: 'Only a repository opens a collection (the storage seam).',
        },
      ],
    },
  },
  {
    // Tests read JSON answers and poke at internals on purpose.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'docker-compose.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The form's scripts run in applicants' browsers.
    files: ['apps/form/src/views/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', XMLHttpRequest: 'readonly', FormData: 'readonly' },
    },
  },
);
