export { PLAYGROUND_OP, runPlayground } from './run-playground.js';
export {
  defaultModels,
  type PlaygroundProviderConfig,
  playgroundProviderConfig,
  type ProviderEnv,
  providersFromEnv,
} from './provider-config.js';
export { ProviderError } from './provider-error.js';
