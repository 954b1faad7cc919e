import {
  ARRAY_ITEM_HAS_PREV,
  ARRAY_VALUE_ITEM_EXT_TYPE,
  arrayValueItemOfPayload,
  CALL_ID_EXT_TYPE,
  callIdOfPayload,
  DIGEST_EXT_TYPE,
  digestOfPayload,
  digestOfValueRefPayload,
  encodeMsgpack,
  VALUE_ITEM_EXT_TYPE,
  VALUE_REF_EXT_TYPE,
  valueItemOfPayload,
  valueRef,
} from '@weft/protocol';
import { addExtension } from 'msgpackr';

/**
 * A value marker that `encodeMsgpack` writes in its compact form (msgpack
 * `ext` 0x57 of the raw digest), as the SDK writes markers: a test builds
 * batch bodies and value bytes with it where `valueRef` gives the map form
 * older SDKs write.
 */
export class CompactRef {
  constructor(readonly digest: string) {}
}

// msgpackr's extensions are per process and one registration replaces the
// type's decoder too: decode as the protocol does (to the map form).
addExtension({
  Class: CompactRef,
  type: VALUE_REF_EXT_TYPE,
  pack: (ref: CompactRef) => Buffer.from(ref.digest, 'base64url'),
  unpack: (payload: Uint8Array) => valueRef(digestOfValueRefPayload(payload)),
});

/** A call id that `encodeMsgpack` writes in its compact form (msgpack `fixext 16` 0x55), as the SDK writes record ids. */
export class CompactId {
  constructor(readonly id: string) {}
}

addExtension({
  Class: CompactId,
  type: CALL_ID_EXT_TYPE,
  pack: (ref: CompactId) => Buffer.from(ref.id.replaceAll('-', ''), 'hex'),
  unpack: callIdOfPayload,
});

/** A value item's digest that `encodeMsgpack` writes in its compact form (ext 0x44 of the raw digest), as the SDK writes them. */
export class CompactDigest {
  constructor(readonly digest: string) {}
}

addExtension({
  Class: CompactDigest,
  type: DIGEST_EXT_TYPE,
  pack: (d: CompactDigest) => Buffer.from(d.digest, 'base64url'),
  unpack: digestOfPayload,
});

/** A plain value item that `encodeMsgpack` writes in its compact form (ext 0x56: raw digest, then the bytes), as the SDK writes them. */
export class CompactValueItem {
  constructor(
    readonly digest: string,
    readonly bytes: Uint8Array,
  ) {}
}

addExtension({
  Class: CompactValueItem,
  type: VALUE_ITEM_EXT_TYPE,
  pack: (v: CompactValueItem) => Buffer.concat([Buffer.from(v.digest, 'base64url'), v.bytes]),
  unpack: valueItemOfPayload,
});

/** An array value item in its compact form (ext 0x41: raw digest, flags, raw prev, the items as bins), as the SDK writes them. */
export class CompactArrayItem {
  constructor(
    readonly digest: string,
    readonly prev: string | undefined,
    readonly items: readonly Uint8Array[],
  ) {}
}

addExtension({
  Class: CompactArrayItem,
  type: ARRAY_VALUE_ITEM_EXT_TYPE,
  pack: (v: CompactArrayItem) =>
    Buffer.concat([
      Buffer.from(v.digest, 'base64url'),
      Uint8Array.of(v.prev === undefined ? 0 : ARRAY_ITEM_HAS_PREV),
      v.prev === undefined ? new Uint8Array(0) : Buffer.from(v.prev, 'base64url'),
      ...v.items.map((item) => encodeMsgpack(item)),
    ]),
  unpack: arrayValueItemOfPayload,
});
