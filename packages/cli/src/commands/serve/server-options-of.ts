import { resolve } from 'node:path';
import type { startServer } from '@weft/server';
import type { ServeOptions } from './serve-options.js';

/** Where `weft serve` keeps its data: a SQLite file, or the ClickHouse URL it was given. */
export interface ServeStorage {
  /** Absolute path of the SQLite file (unused with `remote`). */
  dbPath: string;
  /** The `clickhouse://` or `chdb:` URL, when the data is not in a SQLite file. */
  remote: string | undefined;
}

/** The `startServer` options of a `weft serve` process. */
export function serverOptionsOf(
  options: ServeOptions,
  { dbPath, remote }: ServeStorage,
): NonNullable<Parameters<typeof startServer>[0]> {
  return {
    host: options.host,
    port: options.port,
    dbPath,
    ...(remote === undefined
      ? {}
      : { storage: remote, storageCredentials: options.storageCredentials ?? {} }),
    token: options.token,
    ...(options.tokensFile === undefined ? {} : { tokensFile: resolve(options.tokensFile) }),
    ...(options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
  };
}
