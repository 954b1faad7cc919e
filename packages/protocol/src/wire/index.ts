export { CONTENT_TYPE_JSON, CONTENT_TYPE_MSGPACK, DEFAULT_PORT, DEFAULT_URL, PROTOCOL_VERSION } from './constants.js';
export { decodeMsgpack, encodeMsgpack } from './msgpack.js';
export { routes } from './routes.js';
