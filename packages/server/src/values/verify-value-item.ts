import {
  arrayDigest,
  countMsgpackNodes,
  digestBytes,
  msgpackArrayHeader,
  type ValueItem,
} from '@weft/protocol';
import { DigestMismatchError, InvalidRequestError, TooManyValuesError } from '../errors/index.js';
import type { NodeBudget } from '../http/index.js';
import type { StoredValue } from '../storage/index.js';

/**
 * The stored form of a `value` batch item at `index`, after checking what
 * its bytes hold and recomputing its digest; a {@link DigestMismatchError}
 * (or an {@link InvalidRequestError} for an item with neither or both of
 * `bytes` and `items`, or bytes that are not one msgpack value without
 * `bin`) naming the item otherwise. Returned, not thrown: the caller stores
 * the rest of the batch first. The values its bytes hold are spent from
 * `budget`, the request's value limit; past it the whole request is refused
 * ({@link TooManyValuesError}, thrown), since the body count saw each
 * value's bytes as one `bin`.
 */
export function verifyValueItem(
  item: ValueItem,
  index: number,
  budget: NodeBudget,
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
  const parts = item.bytes === undefined ? (item.items as Uint8Array[]) : [item.bytes];
  for (let i = 0; i < parts.length; i++) {
    const problem = spend(parts[i] as Uint8Array, budget);
    if (problem !== undefined) {
      const where = item.bytes === undefined ? `${path}.items.${i}` : `${path}.bytes`;
      return new InvalidRequestError([{ path: where, index, message: problem }], 'body');
    }
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

/**
 * Counts the values one encoded value holds against `budget`: what reading
 * it back will decode. Bytes inside a value are never `bin` (the SDK sends
 * them as files or base64), so a `bin` there is refused with the rest.
 */
function spend(bytes: Uint8Array, budget: NodeBudget): string | undefined {
  const count = countMsgpackNodes(bytes, { maxNodes: budget.remaining, allowBinary: false });
  switch (count.status) {
    case 'over':
      throw new TooManyValuesError(budget.maxNodes);
    case 'binary':
      return `holds binary data (msgpack bin) at byte ${count.offset}; send bytes inside a value as base64 text or as a file`;
    case 'malformed':
      return `is not one msgpack value (${count.reason})`;
    case 'within':
      if (count.end !== bytes.byteLength)
        return `is not one msgpack value (${bytes.byteLength - count.end} bytes after it)`;
      budget.remaining -= count.nodes;
      return undefined;
  }
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
