import { types } from 'node:util';
import { MARKER_KEY, type Marker } from './markers.js';

/** Binary data seen through its bytes, with the name of its kind. */
export interface Binary {
  readonly type: string;
  readonly bytes: Uint8Array;
}

// Intrinsic getters, captured once: an instance may shadow `buffer` or
// `byteLength` with own properties, these read the internal slots.
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object;
const getter = (proto: object, name: PropertyKey) =>
  Object.getOwnPropertyDescriptor(proto, name)?.get as (this: unknown) => unknown;
const typedBuffer = getter(typedArrayProto, 'buffer');
const typedOffset = getter(typedArrayProto, 'byteOffset');
const typedLength = getter(typedArrayProto, 'byteLength');
const typedTag = getter(typedArrayProto, Symbol.toStringTag);
const viewBuffer = getter(DataView.prototype, 'buffer');
const viewOffset = getter(DataView.prototype, 'byteOffset');
const viewLength = getter(DataView.prototype, 'byteLength');

/**
 * The bytes of `value` when it is binary data (Buffer, a typed array,
 * DataView, ArrayBuffer, SharedArrayBuffer), otherwise undefined. Uses
 * internal-slot checks, so proxies and look-alikes are not binary.
 */
export function asBinary(value: object): Binary | undefined {
  if (types.isArrayBufferView(value)) {
    if (types.isDataView(value)) {
      return {
        type: 'DataView',
        bytes: new Uint8Array(
          viewBuffer.call(value) as ArrayBufferLike,
          viewOffset.call(value) as number,
          viewLength.call(value) as number,
        ),
      };
    }
    return {
      type: Buffer.isBuffer(value) ? 'Buffer' : String(typedTag.call(value)),
      bytes: new Uint8Array(
        typedBuffer.call(value) as ArrayBufferLike,
        typedOffset.call(value) as number,
        typedLength.call(value) as number,
      ),
    };
  }
  if (types.isAnyArrayBuffer(value)) {
    return {
      type: types.isSharedArrayBuffer(value) ? 'SharedArrayBuffer' : 'ArrayBuffer',
      bytes: new Uint8Array(value),
    };
  }
  return undefined;
}

/**
 * The inline form of binary data no hook took: base64 of all its bytes when
 * there are at most `maxInlineBytes`, else of the first `maxInlineBytes` with
 * `truncated: true`; `byteLength` is always the full length.
 */
export function inlineBinary({ type, bytes }: Binary, maxInlineBytes: number): Marker {
  const truncated = bytes.byteLength > maxInlineBytes;
  const shown = truncated ? bytes.subarray(0, maxInlineBytes) : bytes;
  const base64 = Buffer.from(shown.buffer, shown.byteOffset, shown.byteLength).toString('base64');
  return truncated
    ? { [MARKER_KEY]: 'binary', type, byteLength: bytes.byteLength, base64, truncated: true }
    : { [MARKER_KEY]: 'binary', type, byteLength: bytes.byteLength, base64 };
}
