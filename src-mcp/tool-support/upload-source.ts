/**
 * The bytes file_upload sends to Roam (docs/mcp.md, Files): exactly one of a local path, a URL
 * or base64. A local path must resolve (symlinks followed) to a regular file inside the user's
 * home and not be one of the product's own config or store files; no source may contain a Roam
 * token; every source is bounded by MAX_UPLOAD_BYTES.
 */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_TOKEN_PREFIX, REMOTE_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';
import { ToolError } from '../tool-errors.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const MAX_MB = MAX_UPLOAD_BYTES / 1024 / 1024;

export interface UploadBytes {
  bytes: Buffer;
  /** From the file name, the URL's path or the server's Content-Type. */
  filename?: string;
  mimetype?: string;
}

const refuse = (message: string, field: string) => new ToolError('INVALID_PARAMS', message, { field });

/** Files of this product and of Roam's Local API under `home`: never uploaded. */
function productFiles(home: string, env: NodeJS.ProcessEnv): string[] {
  const config = env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [
    path.join(home, '.roam-tools.json'),
    path.join(home, '.roam-mcp.json'),
    path.join(home, '.roam-local-api.json'),
    // Roam Companion's store (Electron's userData) on macOS, Linux and Windows.
    path.join(home, 'Library', 'Application Support', 'Roam Companion'),
    path.join(config, 'Roam Companion'),
    ...(env.APPDATA ? [path.join(env.APPDATA, 'Roam Companion')] : []),
  ];
}

const isInside = (child: string, parent: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** A Roam token anywhere in the bytes (both prefixes, as text). */
function assertNoToken(bytes: Buffer, what: string, field: string): void {
  if (bytes.includes(LOCAL_TOKEN_PREFIX) || bytes.includes(REMOTE_TOKEN_PREFIX)) {
    throw refuse(
      `${what} contains a Roam API token, so it is not uploaded. Remove the token, or choose another file.`,
      field,
    );
  }
}

async function realPathOf(filePath: string): Promise<string> {
  try {
    return await realpath(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(
      `Cannot read '${filePath}' (${code ?? 'error'}): check the path; it must be an existing file in your home folder.`,
      'filePath',
    );
  }
}

export async function readLocalFile(
  filePath: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<UploadBytes> {
  const home = await realpath(os.homedir()).catch(() => os.homedir());
  const expanded = filePath.startsWith('~/') ? path.join(home, filePath.slice(2)) : filePath;
  if (!path.isAbsolute(expanded))
    throw refuse(`filePath must be absolute (or start with ~/), got '${filePath}'.`, 'filePath');
  const real = await realPathOf(expanded);
  if (!isInside(real, home))
    throw refuse(
      `'${filePath}' is outside your home folder (${home}); only files inside it can be uploaded.`,
      'filePath',
    );
  const resolvedProductFiles = await Promise.all(
    productFiles(home, env).map((p) => realpath(p).catch(() => p)),
  );
  if (resolvedProductFiles.some((p) => isInside(real, p)))
    throw refuse(
      `'${filePath}' is a Roam Companion or Roam Local API configuration file; it is never uploaded.`,
      'filePath',
    );
  // O_NOFOLLOW: a symlink swapped in after the checks is refused, not followed.
  const handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refuse(`'${filePath}' is not a regular file.`, 'filePath');
    if (stat.size > MAX_UPLOAD_BYTES)
      throw refuse(
        `'${filePath}' is ${(stat.size / 1024 / 1024).toFixed(1)} MB; files up to ${MAX_MB} MB can be uploaded.`,
        'filePath',
      );
    const bytes = await handle.readFile();
    assertNoToken(bytes, `'${filePath}'`, 'filePath');
    return { bytes, filename: path.basename(real) };
  } finally {
    await handle.close();
  }
}

/** Fetches an http(s) URL, stopping at MAX_UPLOAD_BYTES. */
export async function fetchUrl(url: string, signal: AbortSignal): Promise<UploadBytes> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(`'${url}' is not a URL.`, 'url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw refuse(`Only http and https URLs can be fetched, got '${parsed.protocol}'.`, 'url');
  const response = await fetch(parsed, { signal, redirect: 'follow' }).catch((error: unknown) => {
    throw new ToolError(
      'FETCH_FAILED',
      `Could not fetch ${parsed.origin}${parsed.pathname}: ${(error as Error).message}. Check the URL, or pass the file as base64.`,
      { field: 'url' },
    );
  });
  if (!response.ok || !response.body)
    throw new ToolError(
      'FETCH_FAILED',
      `Fetching ${parsed.origin}${parsed.pathname} answered HTTP ${response.status}. Check the URL, or pass the file as base64.`,
      { field: 'url' },
    );
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > MAX_UPLOAD_BYTES) {
      await reader.cancel();
      throw refuse(
        `The file at ${parsed.origin}${parsed.pathname} is larger than ${MAX_MB} MB; files up to ${MAX_MB} MB can be uploaded.`,
        'url',
      );
    }
    chunks.push(Buffer.from(next.value));
  }
  const bytes = Buffer.concat(chunks);
  assertNoToken(bytes, 'The fetched file', 'url');
  const type = response.headers.get('content-type')?.split(';')[0]?.trim();
  return {
    bytes,
    filename: path.posix.basename(parsed.pathname) || undefined,
    ...(type && type !== 'application/octet-stream' ? { mimetype: type } : {}),
  };
}

export function decodeBase64(base64: string): UploadBytes {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
    throw refuse('base64 is not valid base64 (A-Z, a-z, 0-9, +, / with = padding).', 'base64');
  if ((compact.length / 4) * 3 > MAX_UPLOAD_BYTES + 2)
    throw refuse(`The file is larger than ${MAX_MB} MB; files up to ${MAX_MB} MB can be uploaded.`, 'base64');
  const bytes = Buffer.from(compact, 'base64');
  assertNoToken(bytes, 'The file', 'base64');
  return { bytes };
}
