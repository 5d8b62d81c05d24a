/**
 * Files in Roam's storage (docs/mcp.md, Files): file_get, file_upload, file_delete, named and
 * shaped like the official server's. Roam only ever receives base64; what we read or fetch for
 * file_upload is checked in ./upload-source.ts.
 */
import * as z from 'zod';
import { LIMITS, truncate } from '../../contract/limits.ts';
import { ToolContent } from '../../contract/tool-content.ts';
import { defineTool, type ToolContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { removesFile } from '../../gate/plan-readers.ts';
import { isTextual, mimeFromBytes, mimeFromName } from '../../uploads/file-types.ts';
import { decodeBase64, fetchUrl, readLocalFile, type UploadBytes } from '../../uploads/upload-source.ts';

/** Images above this are described, not shown (a model's context is not the place for them). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Binary files (not text, not image) come back as base64 only up to this size. */
const MAX_INLINE_BINARY_BYTES = 32 * 1024;

const url = z.string().min(1).describe('Roam file URL (firebasestorage…)');

interface FileGetResult {
  base64?: unknown;
  mimetype?: unknown;
  filename?: unknown;
}

function fileView(fileUrl: string, result: FileGetResult): unknown {
  if (!result || typeof result.base64 !== 'string')
    throw new ToolError(
      'ROAM_PROTOCOL_ERROR',
      `Roam sent no file data for ${fileUrl}. Check the URL and try again.`,
    );
  const bytes = Buffer.from(result.base64, 'base64');
  const filename = typeof result.filename === 'string' ? result.filename : undefined;
  const mimetype =
    (typeof result.mimetype === 'string' && result.mimetype) ||
    mimeFromBytes(bytes) ||
    mimeFromName(filename) ||
    'application/octet-stream';
  const about = { url: fileUrl, ...(filename ? { filename } : {}), mimetype, bytes: bytes.length };
  if (mimetype.startsWith('image/') && mimetype !== 'image/svg+xml' && bytes.length <= MAX_IMAGE_BYTES) {
    return new ToolContent([
      { type: 'image', data: result.base64, mimeType: mimetype },
      { type: 'text', text: JSON.stringify(about) },
    ]);
  }
  if (isTextual(mimetype) || mimetype === 'image/svg+xml')
    return { ...about, text: truncate(bytes.toString('utf8'), LIMITS.primary) };
  if (bytes.length <= MAX_INLINE_BINARY_BYTES) return { ...about, base64: result.base64 };
  return {
    ...about,
    note: `Too large to show (${bytes.length} bytes of ${mimetype}); link it with its URL.`,
  };
}

async function uploadBytes(
  args: { filePath?: string; url?: string; base64?: string },
  { signal, uploadFolders }: ToolContext,
): Promise<UploadBytes> {
  const given = [args.filePath, args.url, args.base64].filter((x) => x !== undefined);
  if (given.length !== 1) {
    throw new ToolError(
      'INVALID_PARAMS',
      `file_upload needs exactly one of filePath, url or base64 (got ${given.length}).`,
      { field: 'filePath' },
    );
  }
  if (args.filePath !== undefined) return readLocalFile(args.filePath, uploadFolders);
  if (args.url !== undefined) return fetchUrl(args.url, signal);
  return decodeBase64(args.base64 as string);
}

/** Roam answers the URL wrapped as markdown (`![](url)`); the bare URL is what other tools take. */
function uploadedUrl(answer: unknown): { url: string; markdown: string } {
  if (typeof answer !== 'string' || !answer)
    throw new ToolError(
      'WRITE_UNCONFIRMED',
      'Roam did not answer the upload with a URL, so it may or may not be stored. Try file_upload again.',
    );
  const wrapped = /^!?\[[^\]]*\]\((.+)\)$/.exec(answer.trim());
  const bare = wrapped ? (wrapped[1] as string) : answer.trim();
  return { url: bare, markdown: wrapped ? answer.trim() : `![](${bare})` };
}

export const fileTools = [
  defineTool({
    name: 'file_get',
    title: 'Get file',
    description:
      'Reads a file stored in Roam (decrypted for encrypted graphs): images as images, text as text.',
    toolset: 'files',
    feature: 'files',
    actions: ['file.get'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { url },
    async handler(args, ctx) {
      const result = await ctx.call<FileGetResult>('file.get', [{ url: args.url, format: 'base64' }]);
      return fileView(args.url, result);
    },
  }),
  defineTool({
    name: 'file_upload',
    title: 'Upload file',
    description:
      'Stores a file in Roam and returns its URL (embed it as ![](url)). Exactly one of filePath (in a folder the user allowed for uploads), url (public internet) or base64; up to 10 MB.',
    toolset: 'files',
    feature: 'files',
    actions: ['file.upload'],
    scope: 'graph',
    writes: 'append',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
    inputSchema: {
      filePath: z.string().min(1).optional(),
      url: z.string().min(1).optional(),
      base64: z.string().min(1).optional(),
      mimetype: z.string().min(1).optional(),
      filename: z.string().min(1).optional(),
    },
    outputSchema: { url: z.string(), markdown: z.string() },
    async handler(args, ctx) {
      const source = await uploadBytes(args, ctx);
      const filename = args.filename ?? source.filename;
      const mimetype =
        args.mimetype ??
        source.mimetype ??
        mimeFromBytes(source.bytes) ??
        mimeFromName(filename) ??
        'application/octet-stream';
      const answer = await ctx.call('file.upload', [
        { base64: source.bytes.toString('base64'), mimetype, ...(filename ? { filename } : {}) },
      ]);
      return uploadedUrl(answer);
    },
  }),
  defineTool({
    name: 'file_delete',
    title: 'Delete file',
    description: "Deletes a file from Roam's storage. Blocks that embed its URL keep a broken link.",
    toolset: 'files',
    feature: 'files',
    actions: ['file.delete'],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => [{ id: args.url, kind: 'file' }],
    takes: {
      read: (args, ctx) => removesFile(ctx, args.url),
      nothingDone: (args) => ({ deleted: false, url: args.url }),
    },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { url },
    outputSchema: { deleted: z.boolean(), url: z.string() },
    async handler(args, ctx) {
      await ctx.call('file.delete', [{ url: args.url }]);
      return { deleted: true, url: args.url };
    },
  }),
];
