import type { ApiClient } from '../transport/index.js';

/** What reads beyond calls (online evaluators' walks) need of a client: its project and its one API client. */
export interface ApiHost {
  readonly project: string;
  readonly closed: boolean;
}

// Each client's API client, kept beside it (not on it), so the client's
// public type carries no transport internals and no bearer token.
const apis = new WeakMap<ApiHost, ApiClient>();

/** Registers `host`'s API client; called once by the client that owns both. */
export function registerApiHost(host: ApiHost, api: ApiClient): void {
  apis.set(host, api);
}

/** The API client of `host`, or `undefined` when it is not a Weft client. */
export function apiOf(host: ApiHost): ApiClient | undefined {
  return apis.get(host);
}
