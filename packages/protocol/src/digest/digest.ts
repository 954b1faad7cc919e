import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical.js';

/** `base64url(sha256(canonicalJson(value)))`: the content address of a JSON-like value. */
export function digestValue(value: unknown): string {
  return digestBytes(canonicalJson(value));
}

/** `base64url(sha256(bytes))`; strings are hashed as UTF-8. Used for files and canonical text. */
export function digestBytes(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/**
 * A table's digest derives from its rows' digests in order, so appending rows
 * or changing one row gives a new table digest without re-hashing row contents.
 */
export function tableDigest(rowDigests: readonly string[]): string {
  return digestValue({ rows: rowDigests });
}
