/**
 * The tray as a person meets it, for the browser tests: a temp HOME, the emulator playing Roam
 * Desktop with the graphs of the tray's screens, the real tray core behind the preview server,
 * and its page in Debian's Chromium at tray size (420×600), each step given 10 s.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { startDemo, startDemoPreview, type Demo } from '../../scripts/demo.ts';
import { startPreview, type Preview, type PreviewOptions } from '../../src-main/preview/server.ts';
import { startEmulator } from '../emulator/index.ts';
import type { Emulator, GraphSpec } from '../emulator/types.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';
import { launchChromium, type BrowserSession } from './chromium.ts';

/** The graphs Roam Desktop offers in the tray's screens: one with content, one the user may only read, an offline one. */
export const TRAY_GRAPHS: readonly GraphSpec[] = [
  { name: 'team-notes', content: 'demo' },
  { name: 'reading-list', userPermission: 'read-only' },
  { name: 'diary', type: 'offline' },
  { name: 'secret-plans' },
];

export interface TrayWorld {
  home: string;
  emulator: Emulator;
  preview: Preview;
  browser: BrowserSession;
  page: Page;
  close(): Promise<void>;
}

/** The preview's page in a new tray-sized window; `clipboard`: its Copy buttons may use the clipboard. */
export async function openTray(
  browser: BrowserSession,
  preview: Pick<Preview, 'url' | 'pageUrl'>,
  options: {
    clipboard?: boolean;
    beforeLoad?: (page: Page) => void;
    viewport?: { width: number; height: number };
  } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 420, height: 600 } });
  if (options.clipboard)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: preview.url });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  options.beforeLoad?.(page);
  await page.goto(preview.pageUrl);
  return page;
}

export async function startTrayWorld(options: {
  prefix: string;
  /** Default: TRAY_GRAPHS. */
  graphs?: readonly GraphSpec[];
  /** Before the core starts, e.g. the official server's config in HOME. */
  prepare?: (home: string, emulator: Emulator) => Promise<void>;
  /** The preview's options besides HOME and the emulator. */
  preview?: Omit<PreviewOptions, 'home' | 'emulator'>;
  /** Once the core runs, before the page loads (listeners on the core). */
  started?: (preview: Preview) => void;
  clipboard?: boolean;
  beforeLoad?: (page: Page) => void;
}): Promise<TrayWorld> {
  const home = await tempDir(options.prefix);
  const emulator = await startEmulator({ home, graphs: [...(options.graphs ?? TRAY_GRAPHS)] });
  await options.prepare?.(home, emulator);
  const preview = await startPreview({ home, emulator, statusPollMs: 300, ...options.preview });
  options.started?.(preview);
  const browser = await launchChromium();
  const page = await openTray(browser, preview, options);
  return {
    home,
    emulator,
    preview,
    browser,
    page,
    async close() {
      await browser.close();
      await preview.close();
      await emulator.close();
      await removeDir(home);
    },
  };
}

export interface DemoTray {
  demo: Demo;
  preview: Preview;
  browser: BrowserSession;
  page: Page;
  /**
   * A chat: an SDK client named Claude Desktop, launched with the demo's agent entry; each call is
   * made on Work and throws when the tool fails.
   */
  startAgent(): Promise<(name: string, args: Record<string, unknown>) => Promise<void>>;
  close(): Promise<void>;
}

/** The demo (scripts/demo.ts) as a person sets it up: its graphs imported by the tray's core, Work open to full edits. */
export async function startDemoTray(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<DemoTray> {
  const demo = await startDemo();
  const preview = await startDemoPreview(demo);
  await preview.core.handlers['import:run'](undefined);
  await preview.core.handlers['graphs:update']({ id: 'hosted:demo-work', accessLevel: 'full' });
  const browser = await launchChromium();
  const page = await openTray(browser, preview, options);
  const agents: Client[] = [];
  return {
    demo,
    preview,
    browser,
    page,
    async startAgent() {
      const agent = new Client({ name: 'Claude Desktop', version: '1.0.0' });
      agents.push(agent);
      await agent.connect(
        new StdioClientTransport({ command: demo.launcher.command, args: demo.launcher.args }),
      );
      return async (name, args) => {
        const result = await agent.callTool({ name, arguments: { graph: 'Work', ...args } });
        if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      };
    },
    async close() {
      for (const agent of agents) await agent.close();
      await browser.close();
      await preview.close();
      await demo.close();
    },
  };
}
