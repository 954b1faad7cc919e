import { createHash } from 'node:crypto';

/**
 * The content address of an array given as msgpack-encoded items, chained:
 *
 * ```
 * d(-1) = ''                       (the empty array)
 * d(i)  = base64url(sha256("weft.array\n" ‖ d(i-1) ‖ "\n" ‖ item(i)))
 * ```
 *
 * Why a chain and not one hash of all items: the digest of an array depends
 * only on its items, yet can be computed (and verified by the server) from
 * the digest of any prefix plus the items after it. A chat history that grew
 * by two messages is sent as "the array `prev` plus these two items" and the
 * server checks the claimed digest without reading `prev`'s items. Equal
 * items give equal digests whichever prefix a sender chained from.
 */
export function arrayDigest(prev: string | undefined, items: readonly Uint8Array[]): string {
  let digest = prev ?? '';
  for (const item of items) digest = nextArrayDigest(digest, item);
  return digest;
}

/** One step of {@link arrayDigest}: the digest of the prefix `prev` (`''` when empty) followed by `item`. */
export function nextArrayDigest(prev: string, item: Uint8Array): string {
  return createHash('sha256').update(PREFIX).update(prev).update(SEPARATOR).update(item).digest('base64url');
}

const PREFIX = 'weft.array\n';
const SEPARATOR = '\n';
