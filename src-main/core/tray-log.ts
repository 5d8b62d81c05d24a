/**
 * The tray's log: stderr and `logs/roam-companion.log` in the data folder, each line scrubbed of
 * tokens and HTTP keys. Every diagnostic of the tray (its core and its shell) goes through here.
 */
import { dataDir as defaultDataDir } from '../../src-shared/node/data-dir.ts';
import { TRAY_LOG, appendLogLine, logFilePath, scrubSecrets } from '../../src-shared/node/log-file.ts';

export interface TrayLogOptions {
  /** The data folder; default: the platform's (or ROAM_COMPANION_DATA_DIR). */
  dataDir?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

/** A logger whose lines start with `roam-companion<source>:` (`' --mcp'`, `' http'`, or none). */
export function trayLogger(source = '', options: TrayLogOptions = {}): (line: string) => void {
  const env = options.env ?? process.env;
  // The folder the child finds from this environment (its HOME, as os.homedir() reads it there).
  const folder = options.dataDir ?? defaultDataDir({ env, ...(env.HOME ? { home: env.HOME } : {}) });
  const file = logFilePath(folder, TRAY_LOG);
  return (message) => {
    const line = `roam-companion${source}: ${scrubSecrets(message)}`;
    process.stderr.write(`${line}\n`);
    appendLogLine(file, `[${process.pid}] ${line}`, env);
  };
}
