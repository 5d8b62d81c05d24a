import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const electron = {
  name: 'electron',
  message: 'Only src-main/shell may import electron (docs/architecture.md).',
};
const ROOTS = ['src-shared', 'src-mcp', 'src-main', 'src-renderer', 'test', 'bench', 'scripts'];
/** Every top-level folder of ours except the given ones. */
const roots = (...allowed) => ROOTS.filter((root) => !allowed.includes(root));
/** Forbids imports whose path goes through one of `folders`. */
const outside = (rule, ...folders) => ({
  regex: `(^|/)(${folders.join('|')})/`,
  message: `${rule} (docs/architecture.md, Layers).`,
});
/** The import rule for one folder of the layer table; `paths` bans electron unless told otherwise. */
const layer = (files, patterns, paths = [electron]) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] },
});

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
  // Small units: no product function over 80 lines (aim under 60), split along the seams it has.
  {
    files: [
      'src-renderer/**/*.{ts,tsx}',
      'src-main/**/*.ts',
      'scripts/**/*.{ts,mts,mjs}',
      'src-mcp/**/*.ts',
      'src-shared/**/*.ts',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // Layers (docs/architecture.md): what each folder may import. Specifiers are relative paths,
  // so another folder shows up by its name in the path ('../../src-mcp/…', '../shell/…').
  layer(['test/**', 'bench/**', 'scripts/**'], []),
  layer(['src-shared/**'], [outside('src-shared imports nothing of ours', ...roots('src-shared'))]),
  layer(
    ['src-shared/constants.ts', 'src-shared/graph-identity.ts', 'src-shared/toolsets.ts'],
    [{ regex: '.', message: 'The renderer uses this file, so it imports nothing and stays zod-free.' }],
  ),
  layer(
    ['src-mcp/**'],
    [
      outside('src-mcp imports only src-shared', ...roots('src-shared', 'src-mcp')),
      {
        regex: '^@modelcontextprotocol/sdk(/|$)',
        message: 'The server is on SDK v2 (@modelcontextprotocol/server); the v1 sdk is a test client only.',
      },
    ],
  ),
  layer(
    ['src-main/core/**'],
    [
      outside(
        'src-main/core imports only src-shared and src-mcp',
        ...roots('src-shared', 'src-mcp', 'src-main'),
      ),
      outside('src-main/core imports neither the shell nor the preview', 'shell', 'preview'),
      {
        regex: '(^|/)src-mcp/(?!(installers|changes)/index\\.ts$)',
        message:
          'src-main/core uses src-mcp only through its public entry points src-mcp/installers/index.ts and src-mcp/changes/index.ts.',
      },
    ],
  ),
  layer(
    ['src-main/shell/**'],
    [
      outside(
        'src-main/shell imports only src-main/core and src-shared',
        ...roots('src-shared', 'src-main'),
        'preview',
      ),
    ],
    [],
  ),
  layer(
    ['src-main/preview/**'],
    [
      outside(
        'src-main/preview imports only src-main/core and src-shared',
        ...roots('src-shared', 'src-main'),
        'shell',
      ),
    ],
  ),
  layer(
    ['src-renderer/**'],
    [
      outside('src-renderer imports only src-shared', ...roots('src-shared', 'src-renderer')),
      {
        regex: '(^|/)src-shared/(?!(constants|graph-identity|toolsets)\\.ts$)',
        allowTypeImports: true,
        message:
          'The renderer takes only types from src-shared (`import type`); values come from the zod-free src-shared/constants.ts, graph-identity.ts and toolsets.ts, so zod stays out of the bundle.',
      },
      {
        regex: '^zod(/|$)',
        message: 'The renderer does not ship zod: validation happens in the main process.',
      },
    ],
  ),
  {
    files: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  layer(
    ['test/emulator/**'],
    [
      outside(
        'The emulator plays Roam: it may use src-shared, none of our server, tray or UI code',
        'src-mcp',
        'src-main',
        'src-renderer',
      ),
    ],
  ),
);
