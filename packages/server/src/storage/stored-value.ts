/**
 * A deduplicated value as a storage engine keeps it, once per (project,
 * digest). `bytes` is msgpack: for a plain value its encoding; for an array
 * (`isArray`) a msgpack array of the items after `prev` (the array it
 * extends, `undefined` when none), so decoding it gives those items.
 */
export interface StoredValue {
  digest: string;
  isArray: boolean;
  prev: string | undefined;
  bytes: Uint8Array;
}
