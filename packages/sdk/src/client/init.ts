import { getDefaultClient, setDefaultClient } from './default-client.js';
import { resolveOptions, type TestOnlyOptions, type WeftOptions } from './options.js';
import { type SinkFactory, WeftClient } from './weft-client.js';

/**
 * Creates a client for one project and (unless `setDefault: false`) makes it
 * the default that `weft.op`, `weft.flush` and the other module-level
 * functions use. `project`, `url` and `apiKey` fall back to `WEFT_PROJECT`,
 * `WEFT_URL` and `WEFT_API_KEY`.
 *
 * @throws InvalidOptionsError (`WEFT_INVALID_OPTIONS`) naming the option to fix.
 */
export function init(options: WeftOptions = {}): WeftClient {
  return createClient(options);
}

/** `init` for tests: a test sink instead of the HTTP batcher, and the test-only switches. */
export function createClient(options: WeftOptions & TestOnlyOptions, sink?: SinkFactory): WeftClient {
  const { awaitPendingInSlot, ...rest } = options;
  const resolved = resolveOptions(rest);
  const client = WeftClient.create({ ...resolved, awaitPendingInSlot }, sink);
  if (resolved.setDefault) setDefaultClient(client);
  return client;
}

export { getDefaultClient };
