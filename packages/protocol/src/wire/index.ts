export {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_MSGPACK,
  CONTENT_TYPE_OCTET_STREAM,
  DEFAULT_PORT,
  DEFAULT_URL,
  EVALUATE_OP,
  PREDICT_AND_SCORE_OP,
  PROTOCOL_VERSION,
} from './constants.js';
export { countJsonNodes, type JsonNodeCount } from './json-nodes.js';
export { routes } from './routes.js';
export { type CallsViewLink, callsViewHash } from './ui-links.js';
