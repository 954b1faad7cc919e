/** One ClickHouse server of a test cluster: where it listens. */
export interface ClickHousePorts {
  httpPort: number;
  tcpPort: number;
}

/** A `remote_servers` cluster: each shard is one server (no replicas). */
export interface ClusterLayout {
  name: string;
  shards: readonly ClickHousePorts[];
}

/**
 * The config file of a throwaway ClickHouse server: loopback only, data under
 * `dataDir`, a passwordless `default` user reachable from loopback, and
 * optionally one cluster for `Distributed` tables. Written for 18.16 (the
 * `<yandex>` root); later releases still accept that root.
 */
export function clickHouseConfig(ports: ClickHousePorts, dataDir: string, cluster?: ClusterLayout): string {
  const dir = dataDir.endsWith('/') ? dataDir : `${dataDir}/`;
  const shards = (cluster?.shards ?? [])
    .map((s) => `<shard><replica><host>127.0.0.1</host><port>${s.tcpPort}</port></replica></shard>`)
    .join('');
  const remote = cluster
    ? `<remote_servers><${cluster.name}>${shards}</${cluster.name}></remote_servers>`
    : '';
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>information</level><console>1</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${ports.httpPort}</http_port>
  <tcp_port>${ports.tcpPort}</tcp_port>
  <path>${dir}</path>
  <tmp_path>${dir}tmp/</tmp_path>
  <user_files_path>${dir}user_files/</user_files_path>
  <format_schema_path>${dir}format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>200</max_concurrent_queries>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <profiles><default></default></profiles>
  <quotas><default></default></quotas>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  ${remote}
</yandex>
`;
}
