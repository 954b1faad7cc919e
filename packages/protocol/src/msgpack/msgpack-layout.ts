/**
 * Reading the layout of msgpack bytes without decoding them: where a value's
 * header ends, how many children a container has, where the value ends.
 * The SDK's deduplicator rewrites records in their encoded form, so the bytes
 * of a value it sends once are exactly the bytes the record carried.
 */

/** What kind of value starts at an offset. */
export const MsgpackKind = { Scalar: 0, Str: 1, Bin: 2, Array: 3, Map: 4 } as const;
export type MsgpackKind = (typeof MsgpackKind)[keyof typeof MsgpackKind];

/** A value's header: its kind, header length, and for str/bin the payload length, for containers the child count. */
export interface MsgpackHeader {
  kind: MsgpackKind;
  headerLength: number;
  /** Payload bytes (str, bin, and the whole rest of a scalar), or children (array: items, map: members). */
  size: number;
}

const header: MsgpackHeader = { kind: MsgpackKind.Scalar, headerLength: 1, size: 0 };

/**
 * The header of the value at `pos`. Returns one shared object, overwritten
 * by the next call (read its fields before reading another header).
 * @throws RangeError for a byte that starts no msgpack value (0xc1).
 */
export function readMsgpackHeader(b: Uint8Array, pos: number): MsgpackHeader {
  const t = b[pos]!;
  const h = header;
  if (t < 0x80 || t >= 0xe0) return set(MsgpackKind.Scalar, 1, 0);
  if (t < 0x90) return set(MsgpackKind.Map, 1, t & 0x0f);
  if (t < 0xa0) return set(MsgpackKind.Array, 1, t & 0x0f);
  if (t < 0xc0) return set(MsgpackKind.Str, 1, t & 0x1f);
  switch (t) {
    case 0xc0:
    case 0xc2:
    case 0xc3:
      return set(MsgpackKind.Scalar, 1, 0);
    case 0xc4:
      return set(MsgpackKind.Bin, 2, b[pos + 1]!);
    case 0xc5:
      return set(MsgpackKind.Bin, 3, u16(b, pos + 1));
    case 0xc6:
      return set(MsgpackKind.Bin, 5, u32(b, pos + 1));
    case 0xc7:
      return set(MsgpackKind.Scalar, 3, b[pos + 1]!);
    case 0xc8:
      return set(MsgpackKind.Scalar, 4, u16(b, pos + 1));
    case 0xc9:
      return set(MsgpackKind.Scalar, 6, u32(b, pos + 1));
    case 0xca:
      return set(MsgpackKind.Scalar, 5, 0);
    case 0xcb:
      return set(MsgpackKind.Scalar, 9, 0);
    case 0xcc:
    case 0xd0:
      return set(MsgpackKind.Scalar, 2, 0);
    case 0xcd:
    case 0xd1:
      return set(MsgpackKind.Scalar, 3, 0);
    case 0xce:
    case 0xd2:
      return set(MsgpackKind.Scalar, 5, 0);
    case 0xcf:
    case 0xd3:
      return set(MsgpackKind.Scalar, 9, 0);
    case 0xd4:
      return set(MsgpackKind.Scalar, 3, 0);
    case 0xd5:
      return set(MsgpackKind.Scalar, 4, 0);
    case 0xd6:
      return set(MsgpackKind.Scalar, 6, 0);
    case 0xd7:
      return set(MsgpackKind.Scalar, 10, 0);
    case 0xd8:
      return set(MsgpackKind.Scalar, 18, 0);
    case 0xd9:
      return set(MsgpackKind.Str, 2, b[pos + 1]!);
    case 0xda:
      return set(MsgpackKind.Str, 3, u16(b, pos + 1));
    case 0xdb:
      return set(MsgpackKind.Str, 5, u32(b, pos + 1));
    case 0xdc:
      return set(MsgpackKind.Array, 3, u16(b, pos + 1));
    case 0xdd:
      return set(MsgpackKind.Array, 5, u32(b, pos + 1));
    case 0xde:
      return set(MsgpackKind.Map, 3, u16(b, pos + 1));
    case 0xdf:
      return set(MsgpackKind.Map, 5, u32(b, pos + 1));
    default:
      throw new RangeError(`0x${t.toString(16)} at ${pos} starts no msgpack value`);
  }

  function set(kind: MsgpackKind, headerLength: number, size: number): MsgpackHeader {
    h.kind = kind;
    h.headerLength = headerLength;
    h.size = size;
    return h;
  }
}

/** The offset just past the value at `pos` (iterative: any depth). */
export function skipMsgpackValue(b: Uint8Array, pos: number): number {
  let remaining = 1;
  while (remaining > 0) {
    remaining--;
    const h = readMsgpackHeader(b, pos);
    pos += h.headerLength;
    switch (h.kind) {
      case MsgpackKind.Array:
        remaining += h.size;
        break;
      case MsgpackKind.Map:
        remaining += 2 * h.size;
        break;
      default:
        pos += h.size;
    }
  }
  if (pos > b.byteLength) throw new RangeError('the msgpack value is truncated');
  return pos;
}

function u16(b: Uint8Array, pos: number): number {
  return (b[pos]! << 8) | b[pos + 1]!;
}

function u32(b: Uint8Array, pos: number): number {
  return ((b[pos]! << 24) >>> 0) + ((b[pos + 1]! << 16) | (b[pos + 2]! << 8) | b[pos + 3]!);
}
