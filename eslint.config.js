// Lint the TypeScript sources with the recommended rules of eslint and typescript-eslint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.data/', 'dist/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Tests read untyped JSON answers and use chai's property assertions (`.to.exist`).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    files: ['scripts/**/*.ts', 'bench/**/*.ts', 'db/migrate.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // PM2's process file: CommonJS, read by PM2 in Node.
    files: ['ecosystem.config.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { process: 'readonly', module: 'writable' } },
  },
);
