import { expect, it } from 'vitest';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { migrate, migrations } from './migrations.js';

/** ClickHouse 18.16, as `detectServer` finds it: the legacy schema. */
const SERVER_18_16 = { version: '18.16.1', projectionsOnAggregates: false, lightweightDeletes: false };

/**
 * A connection whose first `ADD COLUMN` fails the way ClickHouse 18.16 does
 * when another replica's schema change races it (seen with two replicas
 * started together): migrate must run the statement again, not give up.
 */
it('runs a schema statement again when a concurrent replica raced it, and finishes the migration', async () => {
  const run: string[] = [];
  let raced = false;
  const connection = {
    async commandOnEveryHost(sql: string) {
      run.push(sql);
      if (!raced && sql.includes('ADD COLUMN')) {
        raced = true;
        throw new Error(
          "Code: 179, e.displayText() = DB::Exception: Different expressions with the same alias cost_usd_tmp: CAST(-1, 'Float64') AS cost_usd_tmp and -1 AS cost_usd_tmp",
        );
      }
    },
    async rowsOnEveryHost() {
      return [[{ v: 1 }]];
    },
    // No call_list yet.
    async rows() {
      return [];
    },
  } as unknown as ClickHouseConnection;
  const version = await migrate(connection, 'weft', undefined, SERVER_18_16);
  expect(version).toBe(migrations.at(-1)?.version);
  const first = run.find((sql) => sql.includes('ADD COLUMN')) as string;
  expect(run.filter((sql) => sql === first)).toHaveLength(2);
});

it('still fails on any other error', async () => {
  const connection = {
    async commandOnEveryHost(sql: string) {
      if (sql.includes('ADD COLUMN')) throw new Error('Code: 47, Unknown identifier: nope');
    },
    async rowsOnEveryHost() {
      return [[{ v: 1 }]];
    },
    // No call_list yet.
    async rows() {
      return [];
    },
  } as unknown as ClickHouseConnection;
  await expect(migrate(connection, 'weft', undefined, SERVER_18_16)).rejects.toThrow(/Unknown identifier/);
});
