import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ClickHouseCluster,
  type ClickHouseProcess,
  startClickHouse,
  startClickHouseCluster,
} from '@weft/server/testing';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { type ServerProcess, startServerProcess } from '@weft/test-server';
import { readCounts, sendCalls } from './support/burst.js';
import { RoundRobinProxy } from './support/round-robin-proxy.js';

// The real, built binary: what `npm run build` produces and a user runs.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const CALLS = 20_000;
const PROJECT = 'replicas';

/*
 * Stateless replicas: `weft serve` keeps nothing between requests when it
 * stores in ClickHouse, so two of them behind a round-robin balancer take
 * one SDK's burst, lose one replica to SIGKILL half-way, and every call is
 * still read back exactly once, through either replica. Run twice: on one
 * ClickHouse server, and on a two-shard cluster with Distributed tables.
 * Each layout starts its own ClickHouse servers once for its describe block.
 */
interface Layout {
  name: string;
  start(): Promise<{
    storageFor(replica: number): string;
    shards: ClickHouseProcess[];
    dispose(): Promise<void>;
  }>;
}

const LAYOUTS: Layout[] = [
  {
    name: 'one ClickHouse server',
    async start() {
      const server = await startClickHouse();
      return {
        storageFor: () => `clickhouse://127.0.0.1:${server.httpPort}/weft`,
        shards: [server],
        dispose: () => server.dispose(),
      };
    },
  },
  {
    name: 'a two-shard ClickHouse cluster',
    async start() {
      const cluster: ClickHouseCluster = await startClickHouseCluster({
        name: 'weft_cluster',
        shardCount: 2,
      });
      const hosts = cluster.shards.map((s) => `127.0.0.1:${s.httpPort}`);
      return {
        // Each replica asks a different shard first, so both act as query initiators.
        storageFor: (replica) => {
          const ordered = replica % 2 === 0 ? hosts : [...hosts].reverse();
          return `clickhouse://${ordered.join(',')}/weft?cluster=${cluster.name}`;
        },
        shards: cluster.shards,
        dispose: () => cluster.dispose(),
      };
    },
  },
];

describe.each(LAYOUTS)('weft serve replicas on $name', (layout) => {
  let env: Awaited<ReturnType<Layout['start']>>;
  let cwd: string;
  const children: ServerProcess[] = [];

  // ClickHouse servers (a two-shard cluster is four processes) start here: past the hook default.
  beforeAll(async () => {
    env = await layout.start();
    cwd = await mkdtemp(join(tmpdir(), 'weft-cli-replicas-'));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(children.map((c) => c.close()));
    await env?.dispose();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  async function replica(index: number): Promise<{ process: ServerProcess; url: string }> {
    const process = await startServerProcess({
      script: BIN,
      args: ['serve', '--port', '0'],
      cwd,
      env: { WEFT_STORAGE: env.storageFor(index) },
      register: false,
    });
    children.push(process);
    return { process, url: process.url };
  }

  // 20,000 calls through two replicas, one SIGKILLed: tens of seconds, past the test default.
  it(`reads each of ${CALLS.toLocaleString('en-US')} calls exactly once after one of two replicas is SIGKILLed mid-burst`, async () => {
    // Both start at the same moment: the schema migration must survive the race.
    const [a, b] = await Promise.all([replica(0), replica(1)]);
    const proxy = await RoundRobinProxy.start([a.url, b.url]);
    onTestFinished(() => proxy.close());

    // SIGKILL replica b once it has taken a share of the burst.
    let toSurvivorAtKill = 0;
    const killed = new Promise<void>((resolve) => {
      const onForward = (index: number) => {
        if (index === 1 && (proxy.forwarded[1] ?? 0) >= 10) {
          proxy.off('forward', onForward);
          toSurvivorAtKill = proxy.forwarded[0] ?? 0;
          resolve(b.process.kill('SIGKILL'));
        }
      };
      proxy.on('forward', onForward);
    });

    const client = weft.init({ project: PROJECT, url: proxy.url, outbox: false, maxAttempts: 20 });
    onTestFinished(async () => {
      await client.shutdown({ timeoutMs: 0 });
    });
    await sendCalls(CALLS);
    await killed;
    const result = await weft.flush();
    expect(result).toMatchObject({ sent: CALLS, failed: 0, spilled: 0, pending: 0 });
    expect(b.process.child.signalCode).toBe('SIGKILL');
    // Mid-burst: the survivor took more of the burst after the kill.
    expect(proxy.forwarded[0]).toBeGreaterThan(toSurvivorAtKill + 10);

    // A fresh replica joins; pages alternate between it and the survivor,
    // each continuing the other's cursor.
    const c = await replica(2);
    const seen = await readCounts([a.url, c.url], PROJECT);
    expect(seen.size).toBe(CALLS);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);

    if (env.shards.length > 1) {
      const perShard = await Promise.all(env.shards.map((s) => localCallCount(s.url)));
      expect(perShard.every((n) => n > 0)).toBe(true);
      expect(perShard.reduce((x, y) => x + y, 0)).toBe(CALLS);
    }

    a.process.child.kill('SIGTERM');
    expect((await a.process.exited).code).toBe(0);
    c.process.child.kill('SIGTERM');
    await once(c.process.child, 'exit');
  }, 120_000);
});

/** Distinct calls stored on one shard's own table (not through the Distributed table). */
async function localCallCount(url: string): Promise<number> {
  const sql = `SELECT uniqExact(id) AS n FROM weft.calls_local WHERE project = '${PROJECT}' FORMAT JSONEachRow`;
  const res = await request(url, { method: 'POST', body: sql });
  const text = await res.body.text();
  return Number((JSON.parse(text) as { n: string }).n);
}
