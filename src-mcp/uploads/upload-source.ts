/**
 * The bytes file_upload sends to Roam (docs/mcp.md, Files): exactly one of a local path, a URL
 * or base64. A local path must be a file in a folder the user allowed (../uploads/path-guard.ts);
 * a URL must be on the public internet (../uploads/public-fetch.ts); no source may contain a Roam
 * token; every source is bounded by MAX_UPLOAD_BYTES.
 */
import os from 'node:os';
import path from 'node:path';
import { LOCAL_TOKEN_PREFIX, REMOTE_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';
import { ToolError, type ToolErrorCode } from '../contract/tool-errors.ts';
import { readUploadFile } from './local-file.ts';
import type { UploadFolders } from './upload-folders.ts';
import { FetchRefusal, fetchPublic } from './public-fetch.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const MAX_MB = MAX_UPLOAD_BYTES / 1024 / 1024;
/** The whole URL fetch, redirects included. */
export const FETCH_TIMEOUT_MS = 30_000;

export interface UploadBytes {
  bytes: Buffer;
  /** From the file name, the URL's path or the server's Content-Type. */
  filename?: string;
  mimetype?: string;
}

const refuse = (message: string, field: string) => new ToolError('INVALID_PARAMS', message, { field });
const tooLarge = (what: string, field: string) =>
  refuse(`${what} is larger than ${MAX_MB} MB; files up to ${MAX_MB} MB can be uploaded.`, field);

/** A Roam token anywhere in the bytes (both prefixes, as text). */
function assertNoToken(bytes: Buffer, what: string, field: string): void {
  if (bytes.includes(LOCAL_TOKEN_PREFIX) || bytes.includes(REMOTE_TOKEN_PREFIX)) {
    throw refuse(
      `${what} contains a Roam API token, so it is not uploaded. Remove the token, or choose another file.`,
      field,
    );
  }
}

export async function readLocalFile(
  filePath: string,
  allowed: UploadFolders,
  env: NodeJS.ProcessEnv = process.env,
): Promise<UploadBytes> {
  const file = await readUploadFile(filePath, {
    allowed,
    home: os.homedir(),
    env,
    maxBytes: MAX_UPLOAD_BYTES,
  });
  assertNoToken(file.bytes, `'${filePath}'`, 'filePath');
  return file;
}

const FETCH_CODES: Record<FetchRefusal['kind'], ToolErrorCode> = {
  'not-public': 'INVALID_PARAMS',
  scheme: 'INVALID_PARAMS',
  redirect: 'FETCH_FAILED',
  'too-large': 'INVALID_PARAMS',
  failed: 'FETCH_FAILED',
};

/** Fetches an http(s) URL on the public internet, stopping at MAX_UPLOAD_BYTES. */
export async function fetchUrl(url: string, signal: AbortSignal): Promise<UploadBytes> {
  let fetched;
  try {
    fetched = await fetchPublic(url, { signal, maxBytes: MAX_UPLOAD_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof FetchRefusal)) throw error;
    const next =
      error.kind === 'too-large'
        ? ` Files up to ${MAX_MB} MB can be uploaded.`
        : error.kind === 'scheme'
          ? ''
          : ' Check the URL, or pass the file as base64 or filePath.';
    throw new ToolError(FETCH_CODES[error.kind], `${error.message}${next}`, { field: 'url' });
  }
  assertNoToken(fetched.bytes, 'The fetched file', 'url');
  const type = fetched.contentType;
  return {
    bytes: fetched.bytes,
    filename: path.posix.basename(fetched.url.pathname) || undefined,
    ...(type && type !== 'application/octet-stream' ? { mimetype: type } : {}),
  };
}

export function decodeBase64(base64: string): UploadBytes {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
    throw refuse('base64 is not valid base64 (A-Z, a-z, 0-9, +, / with = padding).', 'base64');
  if ((compact.length / 4) * 3 > MAX_UPLOAD_BYTES + 2) throw tooLarge('The file', 'base64');
  const bytes = Buffer.from(compact, 'base64');
  assertNoToken(bytes, 'The file', 'base64');
  return { bytes };
}
