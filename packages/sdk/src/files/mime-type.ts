import { extname } from 'node:path';

/** Fallback when neither the bytes nor the name say what a file is. */
export const DEFAULT_MIME_TYPE = 'application/octet-stream';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  bytes.byteLength >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type the bytes' signature ("magic bytes") names: PNG, JPEG, GIF
 * or WebP; `undefined` for anything else. Signatures, not names, because a
 * caller's bytes rarely come with a trustworthy name.
 */
export function detectImageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
};

/** The type a file name's extension suggests, or `undefined`. */
export function mimeTypeOfName(name: string): string | undefined {
  return BY_EXTENSION[extname(name).toLowerCase()];
}

/** What a file is: the magic bytes first (they cannot lie about images), then the name's extension, then {@link DEFAULT_MIME_TYPE}. */
export function detectMimeType(bytes: Uint8Array, name?: string): string {
  return (
    detectImageType(bytes) ?? (name === undefined ? undefined : mimeTypeOfName(name)) ?? DEFAULT_MIME_TYPE
  );
}
