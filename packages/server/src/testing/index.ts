/**
 * `@weft/server/testing`: throwaway ClickHouse servers for tests and benches
 * (free loopback ports, a temp data folder, a config file written here;
 * never the system service).
 */
export { type ClickHousePorts, type ClusterLayout, clickHouseConfig } from './clickhouse-config.js';
export {
  type ClickHouseCluster,
  type ClickHouseProcess,
  clickHouseCommand,
  freeClickHousePorts,
  freePort,
  type StartClickHouseOptions,
  startClickHouse,
  startClickHouseCluster,
} from './clickhouse-process.js';
