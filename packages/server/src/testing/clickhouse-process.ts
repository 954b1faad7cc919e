import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClickHousePorts, type ClusterLayout, clickHouseConfig } from './clickhouse-config.js';

/** A ClickHouse server this process started, on free loopback ports with its own data folder. */
export interface ClickHouseProcess extends ClickHousePorts {
  /** `http://127.0.0.1:<httpPort>`. */
  url: string;
  dataDir: string;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s); the data stays for {@link start}. Idempotent. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data after {@link stop} or {@link kill}. */
  start(): Promise<void>;
  /** Stops it and removes its data folder. */
  dispose(): Promise<void>;
}

/** Options of {@link startClickHouse}. */
export interface StartClickHouseOptions {
  /** Ports to use; free ones are picked when absent. */
  ports?: ClickHousePorts;
  /** A cluster to declare in `remote_servers`. */
  cluster?: ClusterLayout;
}

/** Keeps this much of the server's console output, for the error when it fails to start. */
const MAX_OUTPUT_CHARS = 8_000;

/**
 * The server binary: `WEFT_CLICKHOUSE_BINARY`, else Debian's
 * `clickhouse-server`, else the single `clickhouse` binary of upstream builds.
 */
export function clickHouseCommand(): { command: string; args: string[] } | undefined {
  const fromEnv = process.env.WEFT_CLICKHOUSE_BINARY;
  if (fromEnv) return { command: fromEnv, args: [] };
  for (const path of ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server']) {
    if (existsSync(path)) return { command: path, args: [] };
  }
  if (existsSync('/usr/bin/clickhouse')) return { command: '/usr/bin/clickhouse', args: ['server'] };
  return undefined;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; it stays free until someone binds it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Free http and tcp ports for one server. */
export async function freeClickHousePorts(): Promise<ClickHousePorts> {
  return { httpPort: await freePort(), tcpPort: await freePort() };
}

/**
 * Starts a throwaway ClickHouse server and resolves once it logs "Ready for
 * connections" (an event, not a poll). It takes ~3–5 s on a busy 2-core
 * machine, so test suites share one per file and create a database per test.
 */
export async function startClickHouse({
  ports,
  cluster,
}: StartClickHouseOptions = {}): Promise<ClickHouseProcess> {
  const binary = clickHouseCommand();
  if (binary === undefined) {
    throw new Error(
      'ClickHouse is not installed: install the clickhouse-server package (apt-get install -y clickhouse-server) or set WEFT_CLICKHOUSE_BINARY.',
    );
  }
  const own = ports ?? (await freeClickHousePorts());
  const dataDir = await mkdtemp(join(tmpdir(), 'weft-clickhouse-'));
  const configPath = join(dataDir, 'config.xml');
  await mkdir(join(dataDir, 'data'), { recursive: true });
  await writeFile(configPath, clickHouseConfig(own, join(dataDir, 'data'), cluster));

  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const started = spawn(binary.command, [...binary.args, `--config-file=${configPath}`], {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: string) => {
        output = (output + chunk).slice(-MAX_OUTPUT_CHARS);
        if (output.includes('Ready for connections')) {
          started.stdout?.off('data', onData).resume();
          started.stderr?.off('data', onData).resume();
          started.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null, signal: string | null) =>
        reject(
          new Error(`ClickHouse exited before it was ready (code ${code}, signal ${signal}):\n${output}`),
        );
      started.stdout?.setEncoding('utf8').on('data', onData);
      started.stderr?.setEncoding('utf8').on('data', onData);
      started.once('exit', onExit);
    });
    await ready;
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill(signal);
    const force = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  };

  try {
    await launch();
  } catch (error) {
    await halt('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...own,
    url: `http://127.0.0.1:${own.httpPort}`,
    dataDir,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    start: launch,
    async dispose() {
      await halt('SIGTERM');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Two or more ClickHouse servers, one shard each, that all declare the same cluster. */
export interface ClickHouseCluster {
  name: string;
  shards: ClickHouseProcess[];
  dispose(): Promise<void>;
}

/** Starts `shardCount` servers, each knowing the cluster `name` made of all of them. */
export async function startClickHouseCluster({
  name = 'weft_cluster',
  shardCount = 2,
}: {
  name?: string;
  shardCount?: number;
} = {}): Promise<ClickHouseCluster> {
  const ports: ClickHousePorts[] = [];
  for (let i = 0; i < shardCount; i++) ports.push(await freeClickHousePorts());
  const cluster = { name, shards: ports };
  const started = await Promise.allSettled(ports.map((p) => startClickHouse({ ports: p, cluster })));
  const shards = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(shards.map((s) => s.dispose()));
    throw failed.reason;
  }
  return {
    name,
    shards,
    async dispose() {
      await Promise.all(shards.map((s) => s.dispose()));
    },
  };
}
