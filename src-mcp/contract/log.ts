/** stderr-only logging: stdout belongs to JSON-RPC. Every line is scrubbed of tokens. */
import { scrubTokens } from '../../src-shared/local-api/index.ts';

export type LogLevel = 'info' | 'warn' | 'error';

export function log(level: LogLevel, message: string): void {
  const prefix = level === 'info' ? 'roam-mcp' : `roam-mcp ${level}`;
  process.stderr.write(`${prefix}: ${scrubTokens(message)}\n`);
}
