/**
 * `roam-mcp`: the stdio MCP server, plus `connect` (graphs and tokens), `install`/`uninstall`
 * (MCP client configs). While serving, stdout is JSON-RPC only and everything human-facing goes to
 * stderr; `--help` and `--version` serve nothing, so they answer on stdout as CLIs do.
 */
import os from 'node:os';
import packageJson from '../../package.json' with { type: 'json' };
import { parseCliArgs, SHORT_USAGE, USAGE } from './cli-args.ts';
import { log } from '../contract/log.ts';
import { StartupError } from '../contract/startup-error.ts';
import { keepYoungGenerationSmall } from '../navigation/young-generation.ts';

const version = packageJson.version;

async function main(argv: string[]): Promise<number | undefined> {
  const parsed = parseCliArgs(argv);
  switch (parsed.command) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`roam-mcp ${version}\n`);
      return 0;
    case 'error':
      process.stderr.write(`roam-mcp: ${parsed.message}\n\n${SHORT_USAGE}`);
      return 2;
    case 'installers': {
      // Each command loads only its own code: the server's cold start stays short.
      const { runInstallerCli } = await import('./install.ts');
      return runInstallerCli(argv);
    }
    case 'connect': {
      const { runConnectCli } = await import('./connect.ts');
      return runConnectCli(parsed.args, {
        env: process.env,
        home: os.homedir(),
        configPath: parsed.configPath,
      });
    }
    case 'changes':
    case 'undo': {
      const { runChangesCli } = await import('./changes.ts');
      return runChangesCli(parsed.command, parsed.args, {
        env: process.env,
        home: os.homedir(),
        configPath: parsed.configPath,
        version,
      });
    }
    case 'serve-http': {
      keepYoungGenerationSmall();
      const { runServeCli } = await import('./serve.ts');
      return runServeCli(parsed.args, { env: process.env, home: os.homedir(), version });
    }
    case 'doctor': {
      const { runDoctorCli } = await import('./doctor.ts');
      return runDoctorCli(parsed.args, {
        env: process.env,
        home: os.homedir(),
        ...(parsed.configPath ? { configPath: parsed.configPath } : {}),
      });
    }
    case 'remote': {
      const { runRemoteCli } = await import('./remote.ts');
      return runRemoteCli(parsed.args, { env: process.env, home: os.homedir() });
    }
    case 'key': {
      const { runKeyCli } = await import('./keys.ts');
      return runKeyCli(parsed.args, { env: process.env, home: os.homedir() });
    }
    case 'serve': {
      keepYoungGenerationSmall();
      const { runServer } = await import('../process/run-server.ts');
      await runServer({
        configPath: parsed.configPath,
        readOnly: parsed.readOnly,
        ...(parsed.confirm ? { confirm: parsed.confirm } : {}),
        tools: parsed.tools,
        indexStalenessMs: parsed.indexStalenessMs,
        uploadFolders: parsed.uploadFolders,
        env: process.env,
        home: os.homedir(),
        version,
      });
      return undefined; // keeps serving until the client disconnects
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof StartupError) log('error', `cannot start: ${error.message}`);
    else log('error', error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
