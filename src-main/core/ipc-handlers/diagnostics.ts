/**
 * diagnostics:copy — `roam-mcp doctor`'s checks (src-mcp/doctor), as this app sees its setup, put
 * on the clipboard by main for a bug report: redacted there (no token, key or note text), and
 * never through the renderer, which only learns how many problems and warnings there were.
 */
import { formatDoctor, runDoctor } from '../../../src-mcp/doctor/index.ts';
import type { RequestResults } from '../../../src-shared/ipc-contract.ts';
import { CoreError } from '../core-error.ts';
import type { CoreContext } from './core-context.ts';
import { installerOptions } from './clients.ts';

const NO_CLIPBOARD =
  'This window cannot write your clipboard. Run `roam-mcp doctor --report FILE` in a terminal instead: it writes the same checks to a file.';

export function diagnosticsHandlers(ctx: CoreContext) {
  return {
    async 'diagnostics:copy'(): Promise<RequestResults['diagnostics:copy']> {
      const { writeClipboard, home, env, platform, dataDir } = ctx.options;
      if (!writeClipboard) throw new CoreError('UNAVAILABLE', NO_CLIPBOARD);
      const report = await runDoctor({
        home,
        env: (env ?? process.env) as NodeJS.ProcessEnv,
        launcher: installerOptions(ctx).launcher,
        ...(platform ? { platform } : {}),
        ...(dataDir ? { dataDir } : {}),
      });
      await writeClipboard(formatDoctor(report));
      const count = (status: string) => report.checks.filter((check) => check.status === status).length;
      return { copied: true, problems: count('fail'), warnings: count('warn') };
    },
  };
}
