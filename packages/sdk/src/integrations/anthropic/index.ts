export { InvalidClientError } from '../../errors/index.js';
export type { WrapClientOptions } from '../wrap-options.js';
export { wrapAnthropic } from './wrap-anthropic.js';
