import protobuf from 'protobufjs';
import { ExportTraceRequest } from './otlp-codec.js';

/** What {@link countTraceRequestNodes} found. */
export type ProtobufNodeCount =
  | { status: 'within'; nodes: number }
  | { status: 'over' }
  | { status: 'malformed' };

interface Frame {
  readonly type: protobuf.Type;
  readonly end: number;
}

/**
 * Counts the fields of an OTLP protobuf `ExportTraceServiceRequest` from
 * its wire format (tags and lengths only; nested messages by the schema,
 * iteratively), so a body of millions of empty `AnyValue`s (two bytes each)
 * is refused before protobufjs materialises one object per field.
 * `malformed` bytes are left to the decoder to name.
 */
export function countTraceRequestNodes(bytes: Uint8Array, maxNodes: number): ProtobufNodeCount {
  const frames: Frame[] = [{ type: ExportTraceRequest, end: bytes.byteLength }];
  let pos = 0;
  let nodes = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= bytes.byteLength) return -1;
      const b = bytes[pos++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
    return -1;
  };
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (pos >= frame.end) {
      if (pos > frame.end) return { status: 'malformed' };
      frames.pop();
      continue;
    }
    const tag = varint();
    if (tag < 0) return { status: 'malformed' };
    if (++nodes > maxNodes) return { status: 'over' };
    switch (tag % 8) {
      case 0:
        if (varint() < 0) return { status: 'malformed' };
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        const length = varint();
        if (length < 0 || pos + length > frame.end) return { status: 'malformed' };
        const nested = frame.type.fieldsById[Math.floor(tag / 8)]?.resolvedType;
        if (nested instanceof protobuf.Type) frames.push({ type: nested, end: pos + length });
        else pos += length;
        break;
      }
      default:
        // Groups (3, 4) do not occur in OTLP; other wire types do not exist.
        return { status: 'malformed' };
    }
  }
  return { status: 'within', nodes };
}
