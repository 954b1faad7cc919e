import type { ObjectRef } from '../objects/index.js';
import type { CallPages, GetCallsOptions } from '../read/index.js';
import { NotInitializedError } from '../errors/index.js';
import type { TableDestination } from './table-delivery.js';

/**
 * What datasets need from a Weft client, and no more: its project, publishing
 * an object version, reading a value back and paging calls. A `WeftClient` is
 * one; datasets depend on this view rather than on the client, so the client
 * (which publishes datasets found in calls) and datasets do not import each other.
 */
export interface DatasetHost {
  readonly project: string;
  readonly closed: boolean;
  publish(value: unknown, options?: { name?: string }): Promise<ObjectRef>;
  get(ref: string): Promise<unknown>;
  getCalls(options?: GetCallsOptions): CallPages;
}

// Where each host sends tables (its one API client and delivery path). Kept
// beside the host instead of on it, so the client's public type carries no
// transport internals (and no bearer token).
const destinations = new WeakMap<DatasetHost, TableDestination>();
let defaultHost: DatasetHost | undefined;

/** Registers `host`'s table destination; called once by the client that owns both. */
export function registerDatasetHost(host: DatasetHost, destination: TableDestination): void {
  destinations.set(host, destination);
}

/** Makes `host` the one datasets use when no `client` option is given (`weft.init` does). */
export function setDefaultDatasetHost(host: DatasetHost | undefined): void {
  defaultHost = host;
}

/**
 * The host an operation uses: `given`, or the default client while it is open.
 * @throws {NotInitializedError} neither is there.
 */
export function resolveDatasetHost(given: DatasetHost | undefined, what: string): DatasetHost {
  const host = given ?? (defaultHost?.closed === false ? defaultHost : undefined);
  if (host === undefined) throw new NotInitializedError(what);
  return host;
}

/**
 * Where `host` sends tables and reads rows.
 * @throws {NotInitializedError} `host` is not a Weft client.
 */
export function tableDestinationOf(host: DatasetHost, what: string): TableDestination {
  const destination = destinations.get(host);
  if (destination === undefined)
    throw new NotInitializedError(`${what} (the client given is not a Weft client)`);
  return destination;
}
