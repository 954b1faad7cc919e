export { download } from './download.js';
export { answerError, getJson, postJson, requestJson, type ServerTarget } from './request-json.js';
