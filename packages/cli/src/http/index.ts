export { getJson, postJson, requestJson, type ServerTarget } from './request-json.js';
