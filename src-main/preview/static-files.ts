import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { sendError } from './json-response.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves the built renderer (dist/renderer); '/' is index.html. Nothing outside `dir`. */
export async function serveStatic(dir: string, pathname: string, res: ServerResponse): Promise<void> {
  let relative: string;
  try {
    relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  } catch {
    // A malformed percent-escape is the request's fault, not the server's.
    return sendError(res, 400, {
      code: 'INVALID_INPUT',
      message: `The path '${pathname}' is not valid URL encoding. Check the address and try again.`,
    });
  }
  const file = path.resolve(dir, relative);
  if (!file.startsWith(path.resolve(dir) + path.sep)) {
    return sendError(res, 404, { code: 'NOT_FOUND', message: `No such file: ${pathname}.` });
  }
  try {
    const body = await readFile(file);
    res
      .writeHead(200, {
        'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      })
      .end(body);
  } catch {
    const hint =
      relative === 'index.html' ? ' Build the renderer first: node scripts/build.mjs renderer.' : '';
    sendError(res, 404, { code: 'NOT_FOUND', message: `No such file: ${pathname}.${hint}` });
  }
}
