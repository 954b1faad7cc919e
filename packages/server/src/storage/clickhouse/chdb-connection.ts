import { mkdirSync } from 'node:fs';
import { InvalidOptionsError } from '../../errors/index.js';

/** A `@clickhouse/client` connection (its `connection` option), as `chdb/connection` makes one. */
export type ChdbConnectionFactory = () => unknown;

/** The package that runs ClickHouse in-process; optional (a peer dependency), installed by whoever uses `chdb:`. */
const CHDB_MODULE = 'chdb/connection';

/** What `chdb/connection` exports (typed here: the package is not installed by default). */
interface ChdbModule {
  createChdbConnection(options: { path: string }): unknown;
}

/**
 * Loads chDB (ClickHouse as a library, npm `chdb`) and returns a factory of
 * connections to the database folder `path`, for `@clickhouse/client`'s
 * `connection` option. chDB binds one folder per process: every connection
 * of this process must use the same `path`. Throws `WEFT_INVALID_OPTIONS`
 * naming the install command when the package is missing.
 */
export async function loadChdb(path: string): Promise<ChdbConnectionFactory> {
  let chdb: ChdbModule;
  try {
    // A variable specifier: neither tsc nor the bundler follows it, so the
    // server builds and runs without chDB's 550 MB unless `chdb:` is used.
    const specifier: string = CHDB_MODULE;
    chdb = (await import(specifier)) as ChdbModule;
  } catch (error) {
    throw new InvalidOptionsError(
      'storage',
      `chdb: needs the optional package chdb (ClickHouse in-process, ~550 MB): run \`npm install chdb@3.4.0\` where @weft/server is installed (${(error as Error).message})`,
    );
  }
  mkdirSync(path, { recursive: true });
  return () => chdb.createChdbConnection({ path });
}
