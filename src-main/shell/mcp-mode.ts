/**
 * `--mcp`: an AI client launched the app as its MCP server. Headless — no tray, no manager, no
 * single-instance lock (several clients may each run one) — it decrypts the store with
 * safeStorage and supervises the roam-mcp child that inherits the client's stdio. A change the
 * child's gate holds for the person is asked here, in a native box and a notification
 * (approval-boxes.ts); the answer goes back over the child's IPC pipe, which no other process can
 * write to (docs/tray.md, "Approvals").
 *
 * Why child_process and not utilityProcess: utilityProcess.fork only accepts 'ignore' for stdin,
 * so it cannot carry the client's JSON-RPC. fork() from Electron's main runs the app binary with
 * ELECTRON_RUN_AS_NODE=1, which requires the runAsNode fuse (electron-builder.yml, docs/tray.md).
 */
import { app, safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { askInBoxes } from './approval-boxes.ts';
import { noticeWaitingChanges } from './approval-notices.ts';
import { forkSpawner, runMcpLauncher, argvOption } from '../core/clients/mcp-launcher.ts';
import { STORE_FILE_MODE, STORE_NAME } from '../core/store/store-file.ts';
import { trayLogger } from '../core/tray-log.ts';
import { appPaths } from './app-paths.ts';
import { createSafeStorageSecretBox } from './safe-storage-secret-box.ts';

export async function runMcpMode(): Promise<void> {
  app.dock?.hide();
  await app.whenReady();
  const paths = appPaths(app);
  const log = trayLogger(' --mcp');
  // A box's window closing must not end the app (Electron quits when the last window closes).
  app.on('window-all-closed', () => {});
  try {
    const launcher = await runMcpLauncher({
      storeDir: paths.storeDir,
      secretBox: await createSafeStorageSecretBox(safeStorage),
      mcpServerPath: paths.mcpServerPath,
      store: new ElectronStore<Record<string, unknown>>({
        cwd: paths.storeDir,
        name: STORE_NAME,
        configFileMode: STORE_FILE_MODE,
      }),
      spawn: forkSpawner({ extraEnv: { ELECTRON_RUN_AS_NODE: '1' } }),
      log,
      tools: argvOption(process.argv, 'tools'),
      client: argvOption(process.argv, 'client'),
      showsProposals: true,
    });
    const boxes = askInBoxes(launcher.proposals, log);
    noticeWaitingChanges(launcher.proposals, boxes.askAgain);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void launcher.stop());
    app.exit(await launcher.exited);
  } catch (error) {
    log((error as Error).message);
    app.exit(1);
  }
}
