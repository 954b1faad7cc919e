export { expandStoredValues, type StoredValueNode } from './expand-stored-values.js';
export { setOwnKey } from './own-key.js';
export { collectValueRefs, expandValueRefs, isValueRef, type ValueRef, valueRef } from './value-ref.js';
export { DIGEST_LENGTH, fixstr, VALUE_REF_BYTES, valueRefBytes, writeAscii } from './value-ref-bytes.js';
