import { z } from 'zod';
import { digest } from './names.js';

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
