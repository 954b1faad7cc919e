import { COMPACT_CALL_ID_BYTES, type CallItem, encodeMsgpack, writeCompactCallId } from '@weft/protocol';

/**
 * A walked record (see `Pipeline`'s sanitized path) as msgpack: what
 * `encodeMsgpack(item)` decodes to, with its `id`, `traceId` and `parentId`
 * written as compact call ids like `encodeRecordIfSafe` writes them (a
 * lowercase UUID only; any other id stays a string). Members are encoded one
 * by one after the map header, so each id is written in its final form.
 */
export function encodeCallItem(item: CallItem): Uint8Array {
  const members = item as unknown as Record<string, unknown>;
  const parts: Uint8Array[] = [];
  let count = 0;
  for (const key of Object.keys(members)) {
    const value = members[key];
    if (value === undefined) continue; // as the wire encoder leaves it out
    parts.push(encodeMsgpack(key), compactId(key, value) ?? encodeMsgpack(value));
    count++;
  }
  // A record has at most 14 members: a fixmap (anything larger is written whole).
  if (count >= 16) return encodeMsgpack(item);
  parts.unshift(Uint8Array.of(0x80 | count));
  return Buffer.concat(parts);
}

function compactId(key: string, value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || (key !== 'id' && key !== 'traceId' && key !== 'parentId'))
    return undefined;
  const out = new Uint8Array(COMPACT_CALL_ID_BYTES);
  return writeCompactCallId(value, out, 0) ? out : undefined;
}
