/**
 * Is Roam Desktop running, and on which port? Re-reads `~/.roam-local-api.json` and asks
 * `GET /api/graphs/open` whenever the port file changes and every `pollMs`; reports changes only.
 */
import { watchFile, unwatchFile } from 'node:fs';
import { LocalApiError, portFilePath, type LocalApiClient } from '../../../src-shared/local-api/index.ts';

export interface RoamState {
  running: boolean;
  port: number;
  checkedAt: number;
}

export class RoamStatusMonitor {
  private last: RoamState | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly portFile: string;

  constructor(
    private readonly api: LocalApiClient,
    home: string,
    private readonly onChange: (state: RoamState) => void,
  ) {
    this.portFile = portFilePath(home);
  }

  get current(): RoamState | undefined {
    return this.last;
  }

  async check(): Promise<RoamState> {
    const port = await this.api.refreshPort();
    let running = true;
    try {
      await this.api.graphsOpen();
    } catch (error) {
      // Any answer from Roam (even a refusal) means it runs; no answer means it does not.
      running =
        !(error instanceof LocalApiError) ||
        !['not-running', 'connection-lost', 'protocol'].includes(error.kind);
    }
    const state = { running, port: await this.api.currentPort().catch(() => port), checkedAt: Date.now() };
    const changed = !this.last || this.last.running !== state.running || this.last.port !== state.port;
    this.last = state;
    if (changed) this.onChange(state);
    return state;
  }

  start(pollMs: number): void {
    const recheck = () => void this.check().catch(() => {});
    watchFile(this.portFile, { persistent: false, interval: 1000 }, recheck);
    if (pollMs > 0) {
      this.timer = setInterval(recheck, pollMs);
      this.timer.unref();
    }
    recheck();
  }

  stop(): void {
    unwatchFile(this.portFile);
    clearInterval(this.timer);
  }
}
