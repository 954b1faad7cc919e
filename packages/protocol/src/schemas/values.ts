import { z } from 'zod';
import { digest, projectName } from './names.js';

/** Bytes as msgpack `bin` (a JSON body cannot carry them: value items are sent as msgpack). */
const binary = z.instanceof(Uint8Array, {
  message: 'must be binary (msgpack bin); send value items in a msgpack body',
});

/**
 * A deduplicated value, sent once per server in a call batch (before the call
 * records whose `{ _weft: 'value', digest }` markers refer to it; the server
 * also takes them in any order). Exactly one of two forms:
 *
 * - `bytes`: the msgpack encoding of the value (it may hold value markers
 *   itself); `digest = digestBytes(bytes)`.
 * - `items` (with an optional `prev`): an array, as the items after the array
 *   `prev` (a value digest), each msgpack-encoded; `digest =
 *   arrayDigest(prev, items)`. A growing chat history is sent as its new
 *   messages only.
 *
 * The server recomputes the digest and rejects a mismatch
 * (`WEFT_DIGEST_MISMATCH`, naming the item); the rest of the batch is stored.
 */
export const valueItem = z.object({
  type: z.literal('value'),
  digest,
  bytes: binary.optional(),
  prev: digest.optional(),
  items: z.array(binary).optional(),
});
export type ValueItem = z.infer<typeof valueItem>;

/** Most digests one {@link valueRead} may ask for. */
export const MAX_VALUES_PER_READ = 1_000;

/**
 * Reads deduplicated values by digest (the markers a `callQuery` with
 * `values: 'digests'` leaves): each as it is stored, so a reader that caches
 * by digest fetches every value once, however many calls and values share it.
 */
export const valueRead = z.strictObject({
  project: projectName,
  digests: z.array(digest).min(1).max(MAX_VALUES_PER_READ),
});
export type ValueRead = z.infer<typeof valueRead>;

/**
 * One stored value: `value` (which may hold markers of other values), or an
 * array as its `items` after the array `prev` (its whole value is the items
 * of the `prev` chain, oldest first, then these).
 */
export const valueReadItem = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('value'), digest, value: z.unknown() }),
  z.strictObject({ kind: z.literal('items'), digest, items: z.array(z.unknown()), prev: digest.optional() }),
]);
export type ValueReadItem = z.infer<typeof valueReadItem>;

/** The values asked for that the project stores, in the order asked, and the digests it does not store. */
export const valueReadResponse = z.object({
  values: z.array(valueReadItem),
  missing: z.array(digest),
});
export type ValueReadResponse = z.infer<typeof valueReadResponse>;
