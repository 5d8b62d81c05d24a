/**
 * `roam-mcp doctor [--json] [--report FILE]`: checks what a working setup needs, in order, and
 * says what to fix (src-mcp/doctor). `--report` writes the same checks, redacted, to one file to
 * attach to a bug report (0600; no token, key or note text). Exit 1 when a check failed.
 */
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { formatDoctor, hasProblems, runDoctor } from '../doctor/index.ts';
import { standaloneLauncher } from '../installers/launcher.ts';

const USAGE = `Usage: roam-mcp doctor [--config PATH] [--json] [--report FILE]
  Checks, in order: Node; Roam Desktop and its port file; each graph's token and guidelines; each
  client's entry; the HTTP server; the change journal; the modes of the config and data files;
  the server's and the tray's log files (where, how big; their lines are not in the report).
  --json           the checks as JSON
  --report FILE    also write them, redacted (no token, key or note text), to FILE for a bug report
Exit 0 when nothing failed (warnings allowed), 1 when something did, 2 on a bad command line.
`;

export async function runDoctorCli(
  args: string[],
  context: { env: NodeJS.ProcessEnv; home: string; configPath?: string },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        report: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    process.stderr.write(`roam-mcp doctor: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const report = await runDoctor({
    home: context.home,
    env: context.env,
    launcher: standaloneLauncher(),
    ...(context.configPath ? { configPath: context.configPath } : {}),
  });
  process.stdout.write(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
  if (parsed.values.report) {
    const file = parsed.values.report;
    try {
      await writeFileAtomic(file, `${formatDoctor(report)}\n${JSON.stringify(report, null, 2)}\n`, 0o600);
      process.stderr.write(`Wrote ${file} (no tokens, keys or note text): attach it to your bug report.\n`);
    } catch (error) {
      process.stderr.write(
        `roam-mcp doctor: could not write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Choose a folder you can write to.\n`,
      );
      return 1;
    }
  }
  return hasProblems(report) ? 1 : 0;
}
