import { Packr } from 'msgpackr';

/**
 * The one msgpackr configuration used on the wire. Records/structures are off
 * so any msgpack reader can decode the bodies; `undefined` members are
 * dropped like JSON does.
 */
// `skipValues` exists at runtime but is missing from msgpackr's typings.
// `useToJSON: false`: bodies are JSON-like data, where `toJSON` and
// `constructor` are ordinary keys; with it on, msgpackr calls a data member
// named `toJSON` (and throws) when the object also has a `constructor` key.
const options = { useRecords: false, moreTypes: false, skipValues: [undefined], useToJSON: false };
const packr = new Packr(options);

/** Encodes a request or response body as msgpack. */
export function encodeMsgpack(value: unknown): Uint8Array {
  return packr.pack(value);
}

/** Decodes a msgpack body; throws on malformed input. */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}
