export {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_MSGPACK,
  CONTENT_TYPE_OCTET_STREAM,
  DEFAULT_PORT,
  DEFAULT_URL,
  PROTOCOL_VERSION,
} from './constants.js';
export { decodeMsgpack, encodeMsgpack } from './msgpack.js';
export { routes } from './routes.js';
export { type CallsViewLink, callsViewHash } from './ui-links.js';
