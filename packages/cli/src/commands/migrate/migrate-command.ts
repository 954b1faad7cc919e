import { defineCommand } from '../define-command.js';
import { flagOrEnv } from '../env-value.js';
import { parseNonEmpty } from '../flag-values.js';
import type { MigrateOptions } from './migrate-options.js';

export const migrateCommand = defineCommand<MigrateOptions, Record<string, never>>({
  path: ['migrate'],
  summary:
    'Copy every project from one storage into another (e.g. SQLite into ClickHouse); resumable, re-running copies nothing twice',
  configure(command) {
    command
      .argument(
        '<from>',
        'storage to copy from: sqlite:PATH, chdb:PATH or clickhouse://HOST:PORT/DATABASE',
        parseNonEmpty,
      )
      .argument(
        '<to>',
        'storage to copy into: clickhouse://[USER[:PASSWORD]@]HOST:PORT/DATABASE[?cluster=NAME] or chdb:PATH (credentials also from WEFT_CLICKHOUSE_USER, WEFT_CLICKHOUSE_PASSWORD)',
        parseNonEmpty,
      );
  },
  resolve(args, _flags, env) {
    const username = flagOrEnv(undefined, env, 'WEFT_CLICKHOUSE_USER', parseNonEmpty);
    const password = flagOrEnv(undefined, env, 'WEFT_CLICKHOUSE_PASSWORD', (value) => value);
    return {
      from: args[0] as string,
      to: args[1] as string,
      ...(username === undefined && password === undefined
        ? {}
        : { storageCredentials: { username, password } }),
    };
  },
  load: async () => (await import('./migrate.js')).migrate,
});

export type { MigrateOptions } from './migrate-options.js';
