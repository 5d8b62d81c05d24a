import type { ServerResponse } from 'node:http';
import type { IpcErrorPayload } from '../../src-shared/ipc-contract.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status === 200 ? 204 : status, { 'cache-control': 'no-store' }).end();
    return;
  }
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    })
    .end(text);
}

export function sendError(res: ServerResponse, status: number, error: IpcErrorPayload): void {
  sendJson(res, status, { code: error.code, message: error.message });
}
