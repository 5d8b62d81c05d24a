/**
 * `roam-mcp doctor [--json] [--report FILE]`: checks what a working setup needs, in order, and
 * says what to fix (src-mcp/doctor). `--report` writes the same checks instead, redacted, to one
 * file to attach to a bug report (0600; no token, key or note text, the home folder as `~`, graphs
 * as graph-1, graph-2…), and says on stdout where. Exit 1 when a check failed.
 */
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { forBugReport, formatDoctor, hasProblems, runDoctor } from '../doctor/index.ts';
import { standaloneLauncher } from '../installers/launcher.ts';

const USAGE = `Usage: roam-mcp doctor [--config PATH] [--json] [--report FILE]
  Checks, in order: Node; Roam Desktop and its port file; each graph's token and guidelines; each
  client's entry; the HTTP server; the change journal; the modes of the config and data files;
  the server's and the tray's log files (where, how big; their lines are not in the report).
  --json           the checks as JSON
  --report FILE    write them to FILE instead, for a bug report: no token, key or note text, your
                   home folder as ~ and your graphs as graph-1, graph-2…
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
  const options = {
    home: context.home,
    env: context.env,
    launcher: standaloneLauncher(),
    ...(context.configPath ? { configPath: context.configPath } : {}),
  };
  const report = await runDoctor(options);
  const file = parsed.values.report;
  if (!file) {
    process.stdout.write(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
    return hasProblems(report) ? 1 : 0;
  }
  const redacted = await forBugReport(report, options);
  try {
    await writeFileAtomic(file, `${formatDoctor(redacted)}\n${JSON.stringify(redacted, null, 2)}\n`, 0o600);
  } catch (error) {
    process.stderr.write(
      `roam-mcp doctor: could not write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Choose a folder you can write to.\n`,
    );
    return 1;
  }
  const { checks } = report;
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  process.stdout.write(
    `Wrote ${file}: ${checks.length} checks, ${failed} problem(s), ${warned} warning(s). Your home folder reads ~ ` +
      'and your graphs graph-1, graph-2…; no token, key or note text is in it. Read it, then attach it to your bug report ' +
      '(roam-mcp doctor without --report shows the same checks here).\n',
  );
  return hasProblems(report) ? 1 : 0;
}
