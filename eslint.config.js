import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'release/', 'node_modules/', 'coverage/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Layering (ARCHITECTURE.md): only the Electron shell may import electron.
    files: [
      'src-shared/**',
      'src-mcp/**',
      'src-main/core/**',
      'src-renderer/**',
      'test/**',
      'bench/**',
      'scripts/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only src-main/shell may import electron.' }] },
      ],
    },
  },
  {
    files: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
