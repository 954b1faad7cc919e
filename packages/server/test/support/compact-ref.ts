import {
  CALL_ID_EXT_TYPE,
  callIdOfPayload,
  DIGEST_EXT_TYPE,
  digestOfPayload,
  digestOfValueRefPayload,
  VALUE_REF_EXT_TYPE,
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
