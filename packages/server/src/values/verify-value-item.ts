import { arrayDigest, digestBytes, msgpackArrayHeader, type ValueItem } from '@weft/protocol';
import { DigestMismatchError } from '../errors/index.js';
import { InvalidRequestError } from '../errors/index.js';
import type { StoredValue } from '../storage/index.js';

/**
 * The stored form of a `value` batch item at `index`, after recomputing its
 * digest; a {@link DigestMismatchError} (or an {@link InvalidRequestError}
 * for an item with neither or both of `bytes` and `items`) naming the item
 * otherwise. Returned, not thrown: the caller stores the rest of the batch
 * first.
 */
export function verifyValueItem(
  item: ValueItem,
  index: number,
): StoredValue | DigestMismatchError | InvalidRequestError {
  const path = `items.${index}`;
  if (
    (item.bytes === undefined) === (item.items === undefined) ||
    (item.bytes !== undefined && item.prev !== undefined)
  ) {
    return new InvalidRequestError(
      [{ path, index, message: 'a value item carries either `bytes`, or `items` (with an optional `prev`)' }],
      'body',
    );
  }
  if (item.bytes !== undefined) {
    const computed = digestBytes(item.bytes);
    if (computed !== item.digest)
      return new DigestMismatchError({
        expected: computed,
        actual: item.digest,
        path: `${path}.digest`,
        index,
      });
    return { digest: computed, isArray: false, prev: undefined, bytes: item.bytes };
  }
  const items = item.items as Uint8Array[];
  const computed = arrayDigest(item.prev, items);
  if (computed !== item.digest)
    return new DigestMismatchError({
      expected: computed,
      actual: item.digest,
      path: `${path}.digest`,
      index,
    });
  return { digest: computed, isArray: true, prev: item.prev, bytes: msgpackArray(items) };
}

/** The msgpack array of already-encoded `items`: a header, then the items as they are. */
function msgpackArray(items: readonly Uint8Array[]): Uint8Array {
  const header = msgpackArrayHeader(items.length);
  let length = header.length;
  for (const item of items) length += item.byteLength;
  const out = new Uint8Array(length);
  out.set(header, 0);
  let offset = header.length;
  for (const item of items) {
    out.set(item, offset);
    offset += item.byteLength;
  }
  return out;
}
