import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';

/** Encodes a stored value column (inputs, output, …); `undefined` stays NULL. */
export function toBlob(value: unknown): Uint8Array | null {
  return value === undefined ? null : encodeMsgpack(value);
}

/** Decodes a column written by {@link toBlob}; NULL gives `fallback`. */
export function fromBlob<T>(blob: Uint8Array | null, fallback: T): T {
  return blob === null ? fallback : (decodeMsgpack(blob) as T);
}
