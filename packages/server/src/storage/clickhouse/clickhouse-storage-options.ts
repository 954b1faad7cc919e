import { z } from 'zod';
import { SQL_IDENTIFIER } from './sql-literal.js';

const identifier = z
  .string()
  .regex(SQL_IDENTIFIER, 'must be letters, digits and _ (not starting with a digit), at most 64');

/**
 * Options of {@link ClickHouseStorage.open}; usually built from a
 * `clickhouse://` or `chdb:` URL (`parseStorageUrl`). Exactly one of `hosts`
 * and `chdbPath` says which ClickHouse.
 */
export const clickHouseStorageOptions = z
  .object({
    /** HTTP endpoints `http://host:port`. With `cluster`, list one server of every shard: the schema is created on each. */
    hosts: z
      .array(z.url({ protocol: /^https?$/ }))
      .min(1)
      .optional(),
    /**
     * A folder for chDB, ClickHouse running inside this process (the optional
     * npm package `chdb`); created when missing. One process per folder.
     */
    chdbPath: z.string().min(1).optional(),
    /** Database; created when missing. */
    database: identifier,
    /** @default 'default' */
    username: z.string().default('default'),
    /** @default '' */
    password: z.string().default(''),
    /**
     * Name of a cluster in the servers' `remote_servers`: tables become a local
     * ReplacingMergeTree on each shard plus a `Distributed` table over them.
     */
    cluster: identifier.optional(),
    /**
     * How long one ClickHouse request may take before the HTTP request that
     * needed it fails with 503; no request hangs on a stuck ClickHouse.
     * @default 15_000
     */
    requestTimeoutMs: z.number().int().positive().default(15_000),
    /**
     * `Retry-After` sent with a 503 when ClickHouse is unreachable.
     * @default 2_000
     */
    retryAfterMs: z.number().int().positive().default(2_000),
    /**
     * How old a call's completion must be before online evaluators are handed
     * it: several replicas write completions, and one still in flight when a
     * later one is read must not be passed by the evaluator's cursor. 0 is
     * exact with a single server.
     * @default 5_000
     */
    completionSettleMs: z.number().int().nonnegative().default(5_000),
  })
  .refine((o) => (o.hosts === undefined) !== (o.chdbPath === undefined), {
    message: 'give either hosts (ClickHouse servers) or chdbPath (chDB in this process)',
    path: ['hosts'],
  })
  .refine((o) => o.chdbPath === undefined || o.cluster === undefined, {
    message: 'a cluster needs ClickHouse servers (hosts), not chDB',
    path: ['cluster'],
  });
export type ClickHouseStorageOptions = z.input<typeof clickHouseStorageOptions>;
