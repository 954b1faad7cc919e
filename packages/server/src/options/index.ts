export { isLoopbackHost } from './is-loopback.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  parseServerOptions,
  type ServerOptions,
  type ServerOptionsParsed,
  serverOptions,
} from './server-options.js';
