import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { acquireOutbox, releaseOutbox } from '../../src/outbox/index.js';
import { startServerProcess } from '@weft/test-server';
import { FaultProxy } from '../support/index.js';
import { runBurst } from './burst.js';
import { DiskFullFileSystem } from './disk-full.js';
import { BURST_CALLS, type Fault, type FaultEnv, faultMatch } from './fault-table.js';
import { type FaultRow, recordFaultRow } from './fault-report.js';
import { outboxLeft } from './outbox-left.js';
import { checkServer, type ServerCheck } from './server-check.js';

/** Everything a fault run measured; `expectNoLoss` asserts on it. */
export interface FaultOutcome {
  fault: Fault;
  calls: number;
  check: ServerCheck;
  userErrors: number;
  /** Units `flush()` still had pending at its deadline (0 = it completed). */
  pending: number;
  /** Records still in the outbox when the drain wait gave up (0 = drained). */
  outboxLeft: number;
  row: FaultRow;
}

/** Slug for project names and folders. */
export const slug = (fault: Fault) => `fault-${fault.order}`;

/** A fresh real server (child process) and a fault proxy in front of it, cleaned up after the test. */
export async function startFaultEnv(): Promise<FaultEnv> {
  const server = await startServerProcess();
  const proxy = await FaultProxy.start({ upstream: server.url, match: faultMatch });
  onTestFinished(() => proxy.close());
  return { server, proxy, disk: new DiskFullFileSystem() };
}

/** Makes a temp folder removed after the test. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Runs one in-process fault: `weft.init` against the proxy, the fault's
 * hooks around a 20,000-call burst of `weft.op` calls, `weft.flush()`, a wait
 * for the outbox to drain, then every call looked up on the server by id.
 * Records the table row before returning.
 */
export async function runFault(fault: Fault): Promise<FaultOutcome> {
  const env = await startFaultEnv();
  const { server, proxy, disk } = env;
  const project = slug(fault);
  const outboxDir = await tempDir('weft-faults-outbox-');
  // The client opens its outbox with acquireOutbox, which shares one instance per folder within a
  // process. Opening it first, with a file system that can refuse writes, makes the client use it:
  // the client has no option for the outbox's file system.
  await acquireOutbox({ dir: outboxDir, fileSystem: disk, onWarning: () => {} });
  const client = weft.init({ project, url: proxy.url, outboxDir, handleExit: false, ...fault.clientOptions });
  onTestFinished(async () => {
    disk.full = false;
    proxy.passThrough();
    await client.shutdown({ timeoutMs: 2_000 });
    await releaseOutbox(outboxDir);
  });

  await fault.inject?.(env);
  const started = performance.now();
  const burst = await runBurst({
    calls: BURST_CALLS,
    onProgress: (done) => (done === BURST_CALLS / 2 ? fault.midBurst?.(env) : undefined),
  });
  await fault.recover?.(env);
  const flushed = await weft.flush({ timeoutMs: 40_000 });
  const left = outboxLeft(client);
  const check = await checkServer(server.url, project, burst.ids);
  const timeMs = performance.now() - started;

  const { delivery } = client.diagnostics();
  const c = proxy.counters;
  const proxyNote = Object.entries({
    injected: c.injected,
    dropped: c.dropped,
    reset: c.reset,
    corrupted: c.corrupted,
    '502 server down': c.upstreamErrors,
    'ENOSPC writes': disk.refusedWrites,
  })
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  const notes = [
    `flush: ${flushed.sent} sent, ${flushed.spilled} spilled, ${flushed.failed} failed${flushed.pending ? `, ${flushed.pending} pending` : ''}`,
    `${delivery.retries} retries`,
    proxyNote,
    left ? `${left} stuck in outbox` : '',
    check.missing.length ? `**${check.missing.length} not on server**` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const row: FaultRow = {
    order: fault.order,
    fault: fault.name,
    calls: burst.ids.length,
    onServer: check.onServer,
    duplicates: check.duplicates.length,
    userErrors: burst.userErrors,
    timeMs,
    notes,
  };
  await recordFaultRow(row);
  return {
    fault,
    calls: burst.ids.length,
    check,
    userErrors: burst.userErrors,
    pending: flushed.pending,
    outboxLeft: left,
    row,
  };
}
