import { addExtension, Packr } from 'msgpackr';
import {
  ARRAY_VALUE_ITEM_EXT_TYPE,
  arrayValueItemOfPayload,
  DIGEST_EXT_TYPE,
  digestOfPayload,
  digestOfValueRefPayload,
  VALUE_ITEM_EXT_TYPE,
  VALUE_REF_EXT_TYPE,
  valueItemOfPayload,
  valueRef,
} from '../values/index.js';
import { CALL_ID_EXT_TYPE, callIdOfPayload } from './compact-call-id.js';

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
// The compact value marker, call id, digest and value items decode to the
// forms every reader knows (the marker map, the id and digest strings, the
// value item maps), so ingest,
// resolution, search, export and garbage collection read both forms alike.
// msgpackr's extensions are per process (one table per module instance, and
// an application that imports msgpackr itself shares ours): each is Weft's
// only inside a `decodeMsgpack` call; anywhere else it answers as msgpackr
// does for a type nobody registered, so an application's own `unpack` of
// these ext types is unchanged by loading Weft.
let decoding = 0;
function weftOnly(type: number, unpack: (payload: Uint8Array) => unknown): void {
  addExtension({
    type,
    unpack: (payload: Uint8Array) => {
      if (decoding === 0) throw new Error(`Unknown extension type ${type}`);
      return unpack(payload);
    },
  });
}
weftOnly(VALUE_REF_EXT_TYPE, (payload) => valueRef(digestOfValueRefPayload(payload)));
weftOnly(CALL_ID_EXT_TYPE, callIdOfPayload);
weftOnly(DIGEST_EXT_TYPE, digestOfPayload);
weftOnly(VALUE_ITEM_EXT_TYPE, valueItemOfPayload);
weftOnly(ARRAY_VALUE_ITEM_EXT_TYPE, arrayValueItemOfPayload);
/** Decodes maps as `Map`s, for the rare body that holds a `__proto__` key (see {@link decodeMsgpack}). */
const mapsPackr = new Packr({ ...options, mapsAsObjects: false });
const PROTO_KEY = Buffer.from('__proto__', 'latin1');

/** Encodes a request or response body as msgpack. */
export function encodeMsgpack(value: unknown): Uint8Array {
  return packr.pack(value);
}

/**
 * Decodes a msgpack body; throws on malformed input.
 *
 * An own `__proto__` key stays an own data key, as `JSON.parse` keeps it
 * (msgpackr renames it to `__proto_`, its guard against prototype
 * pollution, which changed the data and broke digests of values that carry
 * such a key). Only a body whose bytes contain `__proto__` anywhere takes the
 * slower path that decodes maps as `Map`s and copies them into objects with
 * defined (never assigned) properties; no prototype is ever changed.
 */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  decoding += 1;
  try {
    if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(PROTO_KEY) === -1)
      return packr.unpack(bytes);
    return mapsToObjects(mapsPackr.unpack(bytes));
  } finally {
    decoding -= 1;
  }
}

function mapsToObjects(value: unknown): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of value) {
      Object.defineProperty(out, String(key), {
        value: mapsToObjects(member),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = mapsToObjects(value[i]);
  }
  return value;
}
