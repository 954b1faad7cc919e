import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ClickHouseProcess, startClickHouse } from '@weft/server/testing';
import * as weft from '@weft/sdk';
import { type ServerProcess, startServerProcess } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { readCounts, sendCalls } from './support/burst.js';
import { childPids, isAlive } from './support/process-children.js';
import { RoundRobinProxy } from './support/round-robin-proxy.js';

// The real, built binary: what `npm run build` produces and a user runs.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const CALLS = 10_000;

/*
 * `weft serve --workers 2` on a real ClickHouse server (18.16): a replica of
 * a primary and two worker processes on one port. The proxy in front opens a
 * connection per request, so the primary hands requests to both workers.
 * Nothing a worker acknowledged is lost when that worker, or the whole
 * replica, is SIGKILLed mid-burst: every call is read back exactly once.
 */
describe('weft serve --workers 2 on ClickHouse', () => {
  let clickhouse: ClickHouseProcess;
  let cwd: string;
  const replicas: ServerProcess[] = [];

  beforeAll(async () => {
    clickhouse = await startClickHouse();
    cwd = await mkdtemp(join(tmpdir(), 'weft-cli-workers-'));
  }, 60_000);
  afterAll(async () => {
    // SIGKILL of a primary ends its workers too (they exit when its IPC channel closes).
    await Promise.all(replicas.map((r) => r.close()));
    await clickhouse?.dispose();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  async function replica(database: string): Promise<ServerProcess> {
    const process = await startServerProcess({
      script: BIN,
      args: ['serve', '--port', '0', '--workers', '2'],
      cwd,
      env: { WEFT_STORAGE: `clickhouse://127.0.0.1:${clickhouse.httpPort}/${database}` },
      register: false,
    });
    replicas.push(process);
    return process;
  }

  /** Resolves once `proxy` has sent `count` requests to upstream `index`, after running `then`. */
  function afterForwarded(
    proxy: RoundRobinProxy,
    index: number,
    count: number,
    then: () => void,
  ): Promise<void> {
    return new Promise((resolve) => {
      const onForward = (to: number) => {
        if (to === index && (proxy.forwarded[index] ?? 0) >= count) {
          proxy.off('forward', onForward);
          then();
          resolve();
        }
      };
      proxy.on('forward', onForward);
    });
  }

  async function burst(project: string, url: string): Promise<void> {
    const client = weft.init({ project, url, outbox: false, maxAttempts: 20 });
    onTestFinished(async () => {
      await client.shutdown({ timeoutMs: 0 });
    });
    await sendCalls(CALLS);
    // A request cut by a kill is re-sent after the SDK's backoff: give the flush time for it.
    expect(await weft.flush({ timeoutMs: 120_000 })).toMatchObject({
      sent: CALLS,
      failed: 0,
      spilled: 0,
      pending: 0,
    });
  }

  // 10,000 calls, a worker SIGKILLed and replaced: tens of seconds, past the test default.
  it('reads each call exactly once after a worker is SIGKILLed mid-burst, replaces the worker, and drains all on SIGTERM', async () => {
    const a = await replica('weft_worker_kill');
    const workers = childPids(a.child.pid as number);
    expect(workers).toHaveLength(2);
    const victim = workers[1] as number;
    const proxy = await RoundRobinProxy.start([a.url], { connectionPerRequest: true });
    onTestFinished(() => proxy.close());

    // The SDK sends the burst as ~25 requests of ~400 calls: kill a third of the way in.
    const killed = afterForwarded(proxy, 0, 8, () => process.kill(victim, 'SIGKILL'));
    await burst('worker-kill', proxy.url);
    await killed;

    // The primary starts a replacement in the killed worker's slot.
    while (!/worker \d is back/.test(a.stderr())) await once(a.child.stderr as NodeJS.ReadableStream, 'data');
    expect(a.stderr()).toContain(`(pid ${victim}) exited (SIGKILL); starting a replacement`);
    const now = childPids(a.child.pid as number);
    expect(now).toHaveLength(2);
    expect(now).toContain(workers[0]);
    expect(now).not.toContain(victim);
    // Mid-burst, and the replica kept taking requests: a killed worker cuts
    // its requests, but the primary's port refuses no connection.
    expect(proxy.forwarded[0]).toBeGreaterThan(8 + 5);

    const seen = await readCounts([a.url], 'worker-kill');
    expect(seen.size).toBe(CALLS);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);

    a.child.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);
    // The primary exits only after every worker has drained and exited.
    expect(now.filter(isAlive)).toEqual([]);
  }, 180_000);

  // Two replicas of two workers, one replica SIGKILLed whole: tens of seconds.
  it('reads each call exactly once after a whole replica (primary and workers) is SIGKILLed mid-burst', async () => {
    const [a, b] = await Promise.all([replica('weft_replica_kill'), replica('weft_replica_kill')]);
    const proxy = await RoundRobinProxy.start([a.url, b.url], { connectionPerRequest: true });
    onTestFinished(() => proxy.close());

    const bProcesses = [b.child.pid as number, ...childPids(b.child.pid as number)];
    expect(bProcesses).toHaveLength(3);
    let toSurvivorAtKill = 0;
    // The SDK sends the burst as ~25 requests, half to each replica.
    const killed = afterForwarded(proxy, 1, 4, () => {
      toSurvivorAtKill = proxy.forwarded[0] ?? 0;
      for (const pid of bProcesses) process.kill(pid, 'SIGKILL');
    });
    await burst('replica-kill', proxy.url);
    await killed;
    await b.exited;
    expect(b.child.signalCode).toBe('SIGKILL');
    // Mid-burst: the survivor took more of the burst after the kill.
    expect(proxy.forwarded[0]).toBeGreaterThan(toSurvivorAtKill + 3);

    const c = await replica('weft_replica_kill');
    const seen = await readCounts([a.url, c.url], 'replica-kill');
    expect(seen.size).toBe(CALLS);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
