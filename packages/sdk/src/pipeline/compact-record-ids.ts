import { COMPACT_CALL_ID_BYTES, writeCompactCallId } from '@weft/protocol';

/** The keys whose string values are call ids, as the bytes of their fixstr. */
const ID_KEYS = ['id', 'traceId', 'parentId'].map((key) => Buffer.from(key, 'latin1'));
/** An id's string as the encoder writes it: str8 of 36 characters. */
const ID_STRING_BYTES = 2 + 36;
/** The most head bytes rewritten: the map header, `type` and three ids, keys included. */
const scratch = new Uint8Array(256);

/**
 * `bytes`, a call record as the safe encoder writes it — a map whose first
 * members are `type`, `id` and, for a start or complete record, `traceId`
 * and `parentId` (the order of `callItem`) — with those ids in their
 * compact form (see `writeCompactCallId` in `@weft/protocol`): 20 bytes
 * fewer each, ~60 per record. Rewritten in place: the new head is written
 * to end where the old one ended, and the record is returned from its new
 * start, so nothing past the head is copied. A record of any other shape,
 * or an id that is not a lowercase UUID, is left as it is.
 */
export function compactRecordIds(bytes: Uint8Array): Uint8Array {
  const b = bytes;
  const header = b[0] as number;
  if ((header & 0xf0) !== 0x80) return bytes; // not a fixmap
  const members = header & 0x0f;
  scratch[0] = header;
  let out = 1;
  let pos = 1;
  let compacted = false;
  for (let m = 0; m < members && m < 4; m++) {
    const keyHead = b[pos] as number;
    if ((keyHead & 0xe0) !== 0xa0) break; // keys are short strings
    const keyEnd = pos + 1 + (keyHead & 0x1f);
    if (keyEnd + 1 > b.length || out + (keyEnd - pos) + ID_STRING_BYTES > scratch.length) break;
    const valueHead = b[keyEnd] as number;
    let valueEnd: number;
    if (isIdKey(b, pos + 1, keyEnd) && valueHead === 0xd9 && b[keyEnd + 1] === 36) {
      scratch.set(b.subarray(pos, keyEnd), out);
      if (writeCompactCallId(b, keyEnd + 2, scratch, out + (keyEnd - pos))) {
        out += keyEnd - pos + COMPACT_CALL_ID_BYTES;
        pos = keyEnd + ID_STRING_BYTES;
        compacted = true;
        continue;
      }
      valueEnd = keyEnd + ID_STRING_BYTES;
    } else if ((valueHead & 0xe0) === 0xa0)
      valueEnd = keyEnd + 1 + (valueHead & 0x1f); // `type`
    else if (valueHead === 0xc0)
      valueEnd = keyEnd + 1; // a root's `parentId: null`
    else break;
    scratch.set(b.subarray(pos, valueEnd), out);
    out += valueEnd - pos;
    pos = valueEnd;
  }
  if (!compacted) return bytes;
  // Everything the new head holds was read: write it over the end of the old one.
  const start = pos - out;
  b.set(scratch.subarray(0, out), start);
  return b.subarray(start);
}

function isIdKey(b: Uint8Array, start: number, end: number): boolean {
  for (const key of ID_KEYS) {
    if (key.length !== end - start) continue;
    let same = true;
    for (let i = 0; i < key.length && same; i++) same = b[start + i] === key[i];
    if (same) return true;
  }
  return false;
}
