export { collectValueRefs, expandValueRefs, isValueRef, type ValueRef, valueRef } from './value-ref.js';
