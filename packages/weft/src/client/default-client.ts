import type { WeftClient } from './weft-client.js';

let current: WeftClient | undefined;
const live = new Set<WeftClient>();

/** The client module-level functions (`weft.op`, `weft.flush`, …) use: the last `init`ed, or the one set here. */
export function getDefaultClient(): WeftClient | undefined {
  return current;
}

/** Makes `client` the default (or clears it with `undefined`). */
export function setDefaultClient(client: WeftClient | undefined): void {
  current = client;
}

/** @internal Bookkeeping of live clients, for `weft/testing`'s reset. */
export function trackClient(client: WeftClient, alive: boolean): void {
  if (alive) live.add(client);
  else {
    live.delete(client);
    if (current === client) current = undefined;
  }
}

/** @internal */
export function liveClients(): WeftClient[] {
  return [...live];
}
