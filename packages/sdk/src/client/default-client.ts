import { setDefaultDatasetHost } from '../datasets/index.js';
import type { WeftClient } from './weft-client.js';

let current: WeftClient | undefined;

/**
 * The client module-level functions (`weft.op`, `weft.flush`, …) use: the last
 * `init`ed, or the one set here; `undefined` once it is shut down.
 */
export function getDefaultClient(): WeftClient | undefined {
  return current?.closed === false ? current : undefined;
}

/** Makes `client` the default (or clears it with `undefined`). */
export function setDefaultClient(client: WeftClient | undefined): void {
  current = client;
  // Datasets reach the default client through their narrow view of it.
  setDefaultDatasetHost(client);
}
