export { CALL_ID, DIGEST, OBJECT_NAME, PROJECT_NAME } from './names.js';
export { formatRef, isRefUri, parseRef, type Ref, tryParseRef } from './ref.js';
