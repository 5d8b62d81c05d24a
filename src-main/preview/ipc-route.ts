import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestChannels, type RequestChannel } from '../../src-shared/constants.ts';
import { toIpcError } from '../core/core-error.ts';
import type { TrayCore } from '../core/tray-core.ts';
import { sendError, sendJson } from './json-response.ts';

const maxBodyBytes = 1024 * 1024;

/** HTTP status for each core error code; unknown codes are server faults. */
const statusByCode: Record<string, number> = {
  INVALID_INPUT: 400,
  VALIDATION: 400,
  NOT_FOUND: 404,
  FORBIDDEN_SENDER: 403,
  ROAM_NOT_RUNNING: 503,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** `POST /ipc/<channel>`: the JSON body (or none, for void channels) goes to core.handlers[channel]. */
export async function handleIpc(
  core: TrayCore,
  channel: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!requestChannels.includes(channel as RequestChannel)) {
    return sendError(res, 404, {
      code: 'NOT_FOUND',
      message: `There is no IPC channel '${channel}'. Known channels: ${requestChannels.join(', ')}.`,
    });
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return sendError(res, 405, {
      code: 'INVALID_INPUT',
      message: `Use POST for /ipc/${channel}, with the input as a JSON body.`,
    });
  }
  let input: unknown;
  try {
    input = await readJsonBody(req);
  } catch (error) {
    return sendError(res, 400, { code: 'INVALID_INPUT', message: (error as Error).message });
  }
  try {
    const result = await core.handlers[channel as RequestChannel](input);
    sendJson(res, 200, result);
  } catch (error) {
    const payload = toIpcError(error);
    sendError(res, statusByCode[payload.code] ?? 500, payload);
  }
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new Error('The request body is larger than 1 MB; send a smaller input.');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('The request body is not valid JSON; send the channel input as JSON.');
  }
}
