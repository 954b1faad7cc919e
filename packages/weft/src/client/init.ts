import { getDefaultClient, setDefaultClient } from './default-client.js';
import { resolveOptions, type WeftOptions } from './options.js';
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

/** @internal `init` with a test sink instead of the HTTP batcher. */
export function createClient(options: WeftOptions, sink?: SinkFactory): WeftClient {
  const resolved = resolveOptions(options);
  const client = new WeftClient(resolved, sink);
  if (resolved.setDefault) setDefaultClient(client);
  return client;
}

export { getDefaultClient };
