export { InvalidClientError } from '../../errors/invalid-client-error.js';
export type { WrapClientOptions } from '../wrap-options.js';
export { wrapOpenAI } from './wrap-openai.js';
