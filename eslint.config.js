import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * src-mcp's rooms by floor, top first (docs/architecture.md, The MCP server), and the rooms each
 * may import: only rooms on floors below it (test/architecture/rooms-lint.test.ts checks the order).
 * A room is a folder of src-mcp; changes/ is three: its public entry (index.ts) above undo/ above journal/.
 */
export const SRC_MCP_FLOORS = [
  {
    cli: [
      'process',
      'remote',
      'doctor',
      'installers',
      'http',
      'changes',
      'changes/undo',
      'changes/journal',
      'navigation',
      'data-folder',
      'config',
      'contract',
    ],
  },
  {
    doctor: ['installers', 'remote', 'http', 'changes/journal', 'data-folder', 'config'],
    process: [
      'remote',
      'server',
      'http',
      'installers',
      'gate',
      'navigation',
      'changes/journal',
      'roam',
      'access',
      'uploads',
      'data-folder',
      'config',
      'contract',
    ],
  },
  {
    installers: ['data-folder'],
    remote: ['http', 'server', 'uploads', 'data-folder', 'contract'],
  },
  { http: ['server', 'data-folder', 'contract'] },
  {
    server: [
      'tools',
      'apps',
      'gate',
      'prompts',
      'navigation',
      'changes/journal',
      'roam',
      'access',
      'contract',
    ],
  },
  {
    tools: [
      'apps',
      'gate',
      'changes',
      'changes/undo',
      'changes/journal',
      'navigation',
      'roam',
      'access',
      'uploads',
      'contract',
    ],
  },
  {
    apps: ['changes/undo', 'changes/journal', 'roam', 'contract'],
    gate: ['changes', 'changes/undo', 'changes/journal', 'roam', 'access', 'contract'],
    prompts: ['changes', 'changes/undo', 'changes/journal', 'navigation', 'roam', 'contract'],
  },
  { changes: ['changes/undo', 'changes/journal', 'contract'] },
  { 'changes/undo': ['changes/journal', 'roam', 'contract'] },
  { 'changes/journal': ['roam', 'contract'], navigation: ['roam', 'contract'] },
  { roam: ['access', 'config', 'contract'] },
  { access: ['config', 'contract'], uploads: ['contract'] },
  { config: [], contract: [], 'data-folder': [] },
];
const mayImport = Object.assign({}, ...SRC_MCP_FLOORS);
const srcMcp = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src-mcp');

/** The room of a file of src-mcp (`changes/journal` for src-mcp/changes/journal/x.ts), else undefined. */
function roomOf(file) {
  const [first, second, ...rest] = path.relative(srcMcp, file).split(path.sep);
  if (first === '..' || second === undefined) return undefined;
  return first === 'changes' && rest.length > 0 ? `changes/${second}` : first;
}

/** The room rule inside src-mcp: an import from one room to another must be on the importer's list. */
const srcMcpRooms = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const from = roomOf(context.filename);
    if (from === undefined) return {};
    const check = ({ source }) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const to = roomOf(path.resolve(path.dirname(context.filename), source.value));
      if (to === undefined || to === from || mayImport[from]?.includes(to)) return;
      const allowed = mayImport[from]?.join(', ') || 'no other room';
      const message =
        mayImport[from] === undefined
          ? `src-mcp/${from}/ is no room of SRC_MCP_FLOORS: give it a floor and a list (eslint.config.js, docs/architecture.md).`
          : `src-mcp/${from}/ may import only ${allowed}, not ${to}/ (docs/architecture.md, The MCP server).`;
      context.report({ node: source, message });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** What the renderer may import: only src-shared's zod-free values, types otherwise. */
const RENDERER_PATTERNS = [
  outside('src-renderer imports only src-shared', ...roots('src-shared', 'src-renderer')),
  {
    regex:
      '(^|/)src-shared/(?!(constants|graph-identity|toolsets|sequence-diff|word-diff|person-text)\\.ts$)',
    allowTypeImports: true,
    message:
      'The renderer takes only types from src-shared (`import type`); values come from the zod-free src-shared/constants.ts, graph-identity.ts, toolsets.ts, sequence-diff.ts, word-diff.ts and person-text.ts, so zod stays out of the bundle.',
  },
  {
    regex: '^zod(/|$)',
    message: 'The renderer does not ship zod: validation happens in the main process.',
  },
];
const RENDERER_FEATURES = ['graphs', 'activity', 'approvals', 'clients', 'settings', 'remote'];

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
    [
      'src-shared/constants.ts',
      'src-shared/graph-identity.ts',
      'src-shared/toolsets.ts',
      'src-shared/sequence-diff.ts',
      'src-shared/person-text.ts',
    ],
    [{ regex: '.', message: 'The renderer uses this file, so it imports nothing and stays zod-free.' }],
  ),
  layer(
    ['src-shared/word-diff.ts'],
    [
      {
        regex: '^(?!\\./sequence-diff\\.ts$)',
        message: 'The renderer uses this file: it imports only the zod-free sequence-diff.ts.',
      },
    ],
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
  {
    files: ['src-mcp/**/*.ts'],
    plugins: { architecture: { rules: { 'src-mcp-rooms': srcMcpRooms } } },
    rules: { 'architecture/src-mcp-rooms': 'error' },
  },
  layer(
    ['src-main/core/**'],
    [
      outside(
        'src-main/core imports only src-shared and src-mcp',
        ...roots('src-shared', 'src-mcp', 'src-main'),
      ),
      outside('src-main/core imports neither the shell nor the preview', 'shell', 'preview'),
      {
        regex: '(^|/)src-mcp/(?!(installers|changes|doctor|data-folder|remote)/index\\.ts$)',
        message:
          'src-main/core uses src-mcp only through its public entry points src-mcp/installers/index.ts, src-mcp/changes/index.ts, src-mcp/doctor/index.ts, src-mcp/data-folder/index.ts and src-mcp/remote/index.ts.',
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
  layer(['src-renderer/**'], RENDERER_PATTERNS),
  // The tray's screens by feature: each imports only shared/ (and the stores, the bridge); app.tsx
  // and the status bar compose them.
  ...RENDERER_FEATURES.map((feature) =>
    layer(
      [`src-renderer/components/${feature}/**`],
      [
        ...RENDERER_PATTERNS,
        outside(
          `src-renderer/components/${feature}/ imports no other feature, only shared/`,
          ...RENDERER_FEATURES.filter((other) => other !== feature),
        ),
      ],
    ),
  ),
  layer(
    ['src-renderer/components/shared/**'],
    [
      ...RENDERER_PATTERNS,
      outside('src-renderer/components/shared/ imports no feature', ...RENDERER_FEATURES),
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
