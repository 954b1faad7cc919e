import type { AddressInfo } from 'node:net';
import { createApp } from '../app/index.js';
import { ListenError, StorageUnavailableError, TokenRequiredError } from '../errors/index.js';
import {
  isLoopbackHost,
  mergeProjectTokens,
  parseServerOptions,
  parseStorageUrl,
  readTokensFile,
  type ServerOptions,
} from '../options/index.js';
import { openStorage } from '../storage/index.js';

/** A listening server. */
export interface RunningServer {
  /** Base URL clients use, e.g. `http://127.0.0.1:7420`. */
  url: string;
  host: string;
  /** The bound port (the real one when started with port 0). */
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish, then closes
   * the database. Idempotent: later calls join the first.
   */
  close(): Promise<void>;
}

/**
 * Starts the trace server with SQLite storage at `dbPath`, or the engine the
 * `storage` URL names (ClickHouse: its schema is migrated first). Throws
 * `WEFT_TOKEN_REQUIRED` before opening anything when `host` is not loopback
 * and no token (admin or per-project) is set, `WEFT_INVALID_OPTIONS` for bad
 * options or an unreadable or malformed `tokensFile`, and
 * `WEFT_LISTEN_FAILED` when the address cannot be bound,
 * `WEFT_STORAGE_UNAVAILABLE` when ClickHouse cannot be reached.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const parsed = parseServerOptions(options);
  const projectTokens =
    parsed.tokensFile === undefined
      ? parsed.projectTokens
      : mergeProjectTokens(parsed.projectTokens ?? {}, await readTokensFile(parsed.tokensFile));
  const anyToken = parsed.token !== undefined || Object.keys(projectTokens ?? {}).length > 0;
  if (!anyToken && !isLoopbackHost(parsed.host)) throw new TokenRequiredError(parsed.host);

  const target =
    parsed.storage === undefined
      ? ({ kind: 'sqlite', path: parsed.dbPath } as const)
      : parseStorageUrl(parsed.storage, parsed.storageCredentials);
  const storage = await openStorage(target).catch((error: unknown) => {
    throw StorageUnavailableError.isInstance(error) && target.kind === 'clickhouse'
      ? new StorageUnavailableError({ cause: error.cause, where: clickHouseAt(target.options.hosts) })
      : error;
  });
  const app = createApp({ ...options, projectTokens, storage });
  try {
    await app.listen({ host: parsed.host, port: parsed.port });
  } catch (error) {
    await app.close().catch(() => {});
    await storage.close();
    throw new ListenError(parsed.host, parsed.port, error);
  }

  const address = app.server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    close() {
      // Fastify's close resolves once the HTTP server has closed, i.e. after
      // in-flight requests drained; only then is the database safe to close.
      closing ??= app.close().then(() => storage.close());
      return closing;
    },
  };
}

/** Where ClickHouse was looked for, for the message of a server that could not start on it. */
function clickHouseAt(hosts: readonly string[] | undefined): string {
  return hosts === undefined ? 'ClickHouse' : `ClickHouse at ${hosts.join(', ')}`;
}
