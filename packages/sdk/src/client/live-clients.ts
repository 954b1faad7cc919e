/** What `@weft/sdk/testing`'s reset needs of a client: a way to shut it down. */
export interface LiveClient {
  shutdown(options?: { timeoutMs?: number }): Promise<unknown>;
}

const live = new Set<LiveClient>();

/** @internal Bookkeeping of live clients (added on construction, removed on shutdown), for `@weft/sdk/testing`'s reset. */
export function trackClient(client: LiveClient, alive: boolean): void {
  if (alive) live.add(client);
  else live.delete(client);
}

/** @internal The clients not yet shut down. */
export function liveClients(): LiveClient[] {
  return [...live];
}
