import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical.js';

/** `base64url(sha256(canonicalJson(value)))`: the content address of a JSON-like value. */
export function digestValue(value: unknown): string {
  return digestBytes(canonicalJson(value));
}

/**
 * `base64url(sha256(bytes))`; strings are hashed as UTF-8. Used for files,
 * canonical text and deduplicated values. Bytes given as parts are hashed as
 * their concatenation (without making it).
 */
export function digestBytes(bytes: Uint8Array | string | readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  if (typeof bytes === 'string' || bytes instanceof Uint8Array) hash.update(bytes);
  else for (const part of bytes) hash.update(part);
  return hash.digest('base64url');
}

/**
 * A table's digest derives from its rows' digests in order, so appending rows
 * or changing one row gives a new table digest without re-hashing row contents.
 */
export function tableDigest(rowDigests: readonly string[]): string {
  return digestValue({ rows: rowDigests });
}
