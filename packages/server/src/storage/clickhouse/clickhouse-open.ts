import { InvalidOptionsError } from '../../errors/index.js';
import { loadChdb } from './chdb-connection.js';
import { ClickHouseConnection } from './clickhouse-connection.js';
import { type ClickHouseStorageOptions, clickHouseStorageOptions } from './clickhouse-storage-options.js';

/** `ClickHouseStorageOptions` checked, defaults filled in. */
export type ClickHouseOpenOptions = ReturnType<typeof clickHouseStorageOptions.parse>;

/** `input` checked against `clickHouseStorageOptions`; `WEFT_INVALID_OPTIONS` names the first bad option. */
export function clickHouseOpenOptions(input: ClickHouseStorageOptions): ClickHouseOpenOptions {
  const parsed = clickHouseStorageOptions.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidOptionsError(
    `storage.${issue?.path.map(String).join('.') ?? ''}`,
    issue?.message ?? 'invalid',
  );
}

/** The connection `options` describe: HTTP to `hosts`, or chDB in this process at `chdbPath`. */
export async function clickHouseConnectionOf(options: ClickHouseOpenOptions): Promise<ClickHouseConnection> {
  return new ClickHouseConnection({
    endpoint:
      options.chdbPath === undefined
        ? { kind: 'http', hosts: options.hosts ?? [] }
        : { kind: 'chdb', connect: await loadChdb(options.chdbPath) },
    username: options.username,
    password: options.password,
    requestTimeoutMs: options.requestTimeoutMs,
    retryAfterMs: options.retryAfterMs,
    // In a cluster, `id IN (SELECT … FROM calls)` runs the subquery on each
    // shard's local table: a call's halves always share a shard.
    settings: options.cluster === undefined ? {} : { distributed_product_mode: 'local' },
  });
}
