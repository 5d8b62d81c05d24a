/**
 * The stdio setup of the capture and desktop tool tests: the built bin with three graphs in ~/.roam-tools.json
 * against the emulator — Main (full access, extension tools, a human comment), Old (an older
 * Roam build without those actions) and Reader (a read-only token, for scope errors).
 */
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { EXTENSION_TOOLS, captureDesktopGraph } from '../emulator/capture-desktop-graph.ts';
import { newToken, removeHome, startMcp, tempHome, type McpHandle, writeToolsConfig } from './mcp-bin.ts';

/** Every action those tools call (the older build answers UNKNOWN_ACTION to each). */
export const CAPTURE_DESKTOP_ACTIONS = [
  'data.block.fromMarkdown',
  'data.block.addComment',
  'data.ai.getComments',
  'data.page.addShortcut',
  'data.page.removeShortcut',
  'data.ai.suggestLinks',
  'data.ai.roamQuery',
  'data.ai.callExtensionTool',
  'depot.reloadDeveloperExtensions',
  'ui.mainWindow.getOpenView',
  'ui.rightSidebar.getWindows',
  'ui.getFocusedBlock',
  'ui.multiselect.getSelected',
  'ui.mainWindow.openBlock',
  'ui.mainWindow.openPage',
  'ui.rightSidebar.addWindow',
];

export interface CaptureDesktopSetup {
  home: string;
  emulator: Emulator;
  mcp: McpHandle;
  close(): Promise<void>;
}

export async function startCaptureDesktop(): Promise<CaptureDesktopSetup> {
  const [main, old, reader] = [newToken(), newToken(), newToken()];
  const home = await tempHome('roam-mcp-capture-');
  await writeToolsConfig(home, [
    { name: 'main', nickname: 'Main', token: main, accessLevel: 'full' },
    { name: 'old', nickname: 'Old', token: old, accessLevel: 'full' },
    // No level chosen: the read-only token's own limits (Roam's INSUFFICIENT_SCOPE) are tested.
    { name: 'reader', nickname: 'Reader', token: reader },
  ]);
  const emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'main',
        content: captureDesktopGraph(),
        tokens: [{ token: main, accessLevel: 'full' }],
        displayNames: { ai: 'Claude (AI)' },
        comments: [
          { block: 'task-open', author: 'Ada', createdTime: '2026-01-05T10:00:00.000Z', text: 'Due Friday' },
          {
            block: 'task-open',
            author: 'Grace',
            createdTime: '2026-01-06T10:00:00.000Z',
            text: 'salary #.rm-hide',
          },
        ],
        extensionTools: EXTENSION_TOOLS,
        developerExtensions: [{ id: 'dev-ext', name: 'My dev extension' }],
      },
      {
        name: 'old',
        content: captureDesktopGraph(),
        tokens: [{ token: old, accessLevel: 'full' }],
        missingActions: CAPTURE_DESKTOP_ACTIONS,
      },
      {
        name: 'reader',
        content: captureDesktopGraph(),
        tokens: [{ token: reader, accessLevel: 'read-only' }],
        extensionTools: EXTENSION_TOOLS,
      },
    ],
  });
  const mcp = await startMcp({ home });
  return {
    home,
    emulator,
    mcp,
    async close() {
      await mcp.close();
      await emulator.close();
      await removeHome(home);
    },
  };
}
