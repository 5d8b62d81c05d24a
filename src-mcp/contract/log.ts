/**
 * The server's log: stderr (stdout belongs to JSON-RPC) and `logs/roam-mcp.log` in the data folder.
 * Every line is scrubbed of tokens and HTTP keys.
 */
import { dataDir } from '../../src-shared/node/data-dir.ts';
import { SERVER_LOG, appendLogLine, logFilePath, scrubSecrets } from '../../src-shared/node/log-file.ts';

export type LogLevel = 'info' | 'warn' | 'error';

export function log(level: LogLevel, message: string): void {
  const prefix = level === 'info' ? 'roam-mcp' : `roam-mcp ${level}`;
  const line = `${prefix}: ${scrubSecrets(message)}`;
  process.stderr.write(`${line}\n`);
  appendLogLine(logFilePath(dataDir(), SERVER_LOG), `[${process.pid}] ${line}`);
}
