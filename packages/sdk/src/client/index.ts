export type { Diagnostics } from './diagnostics.js';
export { getDefaultClient, setDefaultClient } from './default-client.js';
export { type LiveClient, liveClients, trackClient } from './live-clients.js';
export { createClient, init } from './init.js';
export { resolveOptions, type TestOnlyOptions, type WeftOptions } from './options.js';
export type { FlushOptions } from './flush-client.js';
export { type SinkFactory, WeftClient } from './weft-client.js';
export { feedback, flush, get, op, publish, setLabel, shutdown, withFlush } from './default-functions.js';
