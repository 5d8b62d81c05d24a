/**
 * The layer table of docs/architecture.md is enforced by eslint.config.js: a deliberate violation
 * in each folder is reported and what the table allows is not. That the tree as it stands is
 * clean is `npm run lint` (`--max-warnings 0`), which `npm test` runs before this.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = '@typescript-eslint/no-restricted-imports';
const eslint = new ESLint({ cwd: root });

/** The layer messages ESLint reports for `code` as if it were the file at `file`. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const probe = [];\n`, {
    filePath: path.join(root, file),
  });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const violations: Array<[file: string, code: string, reason: RegExp]> = [
  [
    'src-shared/probe.ts',
    "import { log } from '../src-mcp/contract/log.ts';",
    /src-shared imports nothing of ours/,
  ],
  [
    'src-shared/local-api/probe.ts',
    "import type { TrayCore } from '../../src-main/core/tray-core.ts';",
    /src-shared/,
  ],
  ['src-shared/constants.ts', "import * as z from 'zod';", /stays zod-free/],
  ['src-shared/person-text.ts', "import { graphId } from './constants.ts';", /stays zod-free/],
  ['src-shared/word-diff.ts', "import { graphId } from './constants.ts';", /only the zod-free sequence-diff/],
  [
    'src-mcp/probe.ts',
    "import { CoreError } from '../src-main/core/core-error.ts';",
    /src-mcp imports only src-shared/,
  ],
  ['src-mcp/probe.ts', "import { app } from 'electron';", /Only src-main\/shell may import electron/],
  [
    'src-mcp/probe.ts',
    "import { Server } from '@modelcontextprotocol/sdk/server/index.js';",
    /the v1 sdk is a test client only/,
  ],
  [
    'src-main/core/probe.ts',
    "import { install } from '../../src-mcp/installers/installer.ts';",
    /installers\/index\.ts/,
  ],
  [
    'src-main/core/probe.ts',
    "import { runUndo } from '../../src-mcp/changes/undo/undo-engine.ts';",
    /changes\/index\.ts/,
  ],
  [
    'src-main/core/ipc-handlers/probe.ts',
    "import { appPaths } from '../../shell/app-paths.ts';",
    /neither the shell/,
  ],
  [
    'src-main/core/probe.ts',
    "import { startPreview } from '../preview/server.ts';",
    /neither the shell nor the preview/,
  ],
  [
    'src-main/shell/probe.ts',
    "import { startPreview } from '../preview/server.ts';",
    /src-main\/shell imports only/,
  ],
  [
    'src-main/shell/probe.ts',
    "import { log } from '../../src-mcp/contract/log.ts';",
    /src-main\/shell imports only/,
  ],
  [
    'src-main/preview/probe.ts',
    "import { appPaths } from '../shell/app-paths.ts';",
    /src-main\/preview imports only/,
  ],
  [
    'src-main/preview/probe.ts',
    "import { shell } from 'electron';",
    /Only src-main\/shell may import electron/,
  ],
  [
    'src-renderer/probe.ts',
    "import { requests } from '../src-shared/ipc-contract.ts';",
    /only types from src-shared/,
  ],
  [
    'src-renderer/components/probe.tsx',
    "import { ACCESS_LEVELS } from '../../src-shared/roam-config.ts';",
    /only types/,
  ],
  ['src-renderer/probe.ts', "import * as z from 'zod';", /does not ship zod/],
  [
    'src-renderer/components/graphs/probe.tsx',
    "import { ActivityView } from '../activity/activity-view.tsx';",
    /graphs\/ imports no other feature/,
  ],
  [
    'src-renderer/components/shared/probe.tsx',
    "import { GraphsView } from '../graphs/graphs-view.tsx';",
    /shared\/ imports no feature/,
  ],
  ['src-renderer/components/settings/probe.tsx', "import * as z from 'zod';", /does not ship zod/],
  [
    'src-renderer/probe.ts',
    "import type { TrayCore } from '../src-main/core/tray-core.ts';",
    /imports only src-shared/,
  ],
  [
    'test/emulator/probe.ts',
    "import { truncate } from '../../src-mcp/contract/limits.ts';",
    /The emulator plays Roam/,
  ],
  [
    'test/emulator/probe.test.ts',
    "import { CoreError } from '../../src-main/core/core-error.ts';",
    /emulator/,
  ],
];

const allowed: Array<[file: string, code: string]> = [
  ['src-mcp/probe.ts', "import { scopesOf } from '../src-shared/roam-config.ts';"],
  ['src-main/core/probe.ts', "import { install } from '../../src-mcp/installers/index.ts';"],
  ['src-main/core/probe.ts', "import { listChanges } from '../../src-mcp/changes/index.ts';"],
  ['src-main/core/probe.ts', "import { runDoctor } from '../../src-mcp/doctor/index.ts';"],
  ['src-main/core/probe.ts', "import { RemoteAccess } from '../../src-mcp/remote/index.ts';"],
  [
    'src-main/shell/probe.ts',
    "import { app } from 'electron';\nimport { CoreError } from '../core/core-error.ts';",
  ],
  ['src-main/preview/probe.ts', "import { createTrayCore } from '../core/tray-core.ts';"],
  ['src-renderer/probe.ts', "import type { GraphView } from '../src-shared/ipc-contract.ts';"],
  [
    'src-renderer/probe.ts',
    "import { type GraphView, type AppStatus } from '../src-shared/ipc-contract.ts';",
  ],
  ['src-renderer/probe.ts', "import { ACCESS_LEVELS, graphId } from '../src-shared/constants.ts';"],
  ['src-renderer/components/probe.ts', "import { diffSequences } from '../../src-shared/sequence-diff.ts';"],
  ['src-renderer/components/probe.ts', "import { wordDiff } from '../../src-shared/word-diff.ts';"],
  ['src-renderer/components/probe.ts', "import { cutText } from '../../src-shared/person-text.ts';"],
  ['src-shared/word-diff.ts', "import { diffSequences } from './sequence-diff.ts';"],
  ['src-renderer/components/graphs/probe.tsx', "import { ActionError } from '../shared/action-error.tsx';"],
  ['src-renderer/components/app-probe.tsx', "import { GraphsView } from './graphs/graphs-view.tsx';"],
  ['test/emulator/probe.ts', "import { scopesOf } from '../../src-shared/roam-config.ts';"],
  ['test/mcp/probe.test.ts', "import { CoreError } from '../../src-main/core/core-error.ts';"],
];

describe('layer lint rules (docs/architecture.md)', () => {
  it.each(violations)('reports %s: %s', async (file, code, reason) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(reason);
  });

  it.each(allowed)('allows %s: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
