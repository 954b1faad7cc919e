export { InvalidClientError } from '../../errors/index.js';
export type { WrapClientOptions } from '../wrap-options.js';
export { wrapOpenAI } from './wrap-openai.js';
