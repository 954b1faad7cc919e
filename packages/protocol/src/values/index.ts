export {
  COMPACT_DIGEST_BYTES,
  DIGEST_EXT_TYPE,
  digestOfPayload,
  writeCompactDigest,
  writeRawDigest,
} from './compact-digest.js';
export {
  ARRAY_ITEM_HAS_PREV,
  ARRAY_VALUE_ITEM_EXT_TYPE,
  arrayValueItemOfPayload,
  type DecodedValueItem,
  VALUE_ITEM_EXT_TYPE,
  valueItemOfPayload,
} from './compact-value-item.js';
export { expandStoredValues, type StoredValueNode } from './expand-stored-values.js';
export { setOwnKey } from './own-key.js';
export { collectValueRefs, expandValueRefs, isValueRef, type ValueRef, valueRef } from './value-ref.js';
export {
  DIGEST_BYTES,
  DIGEST_LENGTH,
  digestOfValueRefPayload,
  fixstr,
  mayHoldValueRefs,
  VALUE_REF_BYTES,
  VALUE_REF_EXT_HEAD,
  VALUE_REF_EXT_TYPE,
  valueRefBytes,
  writeAscii,
} from './value-ref-bytes.js';
