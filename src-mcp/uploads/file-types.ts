/** MIME types for files sent to Roam: from the name's extension, else from magic bytes. */
import path from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.avif': 'image/avif',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const MAGIC: Array<[number[], string]> = [
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x42, 0x4d], 'image/bmp'],
];

export function mimeFromName(name: string | undefined): string | undefined {
  return name ? BY_EXTENSION[path.extname(name).toLowerCase()] : undefined;
}

export function mimeFromBytes(bytes: Buffer): string | undefined {
  const isWebp =
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
  if (isWebp) return 'image/webp';
  return MAGIC.find(([magic]) => magic.every((byte, i) => bytes[i] === byte))?.[1];
}

/** Types whose bytes an agent can read as text. */
export function isTextual(mimetype: string): boolean {
  return /^text\/|[/+](json|xml|yaml|csv|markdown)$/.test(mimetype);
}
