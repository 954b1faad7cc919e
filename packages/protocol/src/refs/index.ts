export {
  CALL_ID,
  DIGEST,
  OBJECT_NAME,
  PROJECT_NAME,
  callId,
  digest,
  objectName,
  projectName,
} from './names.js';
export { formatRef, isRefUri, parseRef, type Ref } from './ref.js';
