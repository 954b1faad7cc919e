import { routes } from '@weft/protocol';
import type { WeftOptions } from '@weft/sdk';
import type { ServerProcess } from '@weft/test-server';
import type { FaultProxy } from '../support/index.js';
import type { DiskFullFileSystem } from './disk-full.js';

/** Calls per fault: the burst the issue asks for. */
export const BURST_CALLS = 20_000;

/** What a fault acts on: a real server in a child process, the proxy in front of it, the outbox's file system. */
export interface FaultEnv {
  server: ServerProcess;
  proxy: FaultProxy;
  disk: DiskFullFileSystem;
}

/**
 * One fault, as hooks around a 20,000-call burst through `weft.op`:
 * `inject` before the burst, `midBurst` when half the calls are made,
 * `recover` after the last call returned (it waits for the fault to have
 * actually been hit, then removes it); then `weft.flush()` and the checks.
 * The SDK-kill fault has its own runner (two child processes).
 */
export interface Fault {
  /** Row order in the table. */
  order: number;
  name: string;
  /** Which test file runs it (each file stays well under a minute). */
  group: 'http' | 'connection' | 'process' | 'disk';
  kind: 'in-process' | 'sdk-kill';
  inject?: (env: FaultEnv) => void | Promise<void>;
  midBurst?: (env: FaultEnv) => void | Promise<void>;
  recover?: (env: FaultEnv) => Promise<void>;
  /** Extra `weft.init` options (defaults otherwise). */
  clientOptions?: Partial<WeftOptions>;
}

/** Faults apply to ingest only: the circuit breaker's `/health` probe and the query API go through untouched. */
export const faultMatch = ({ method, path }: { method: string; path: string }) =>
  method === 'POST' && path === routes.callBatch();

/** How many times the fault must have been hit before `recover` removes it. */
const HITS = 5;

const statusFault = (order: number, status: number, headers?: Record<string, string>): Fault => ({
  order,
  name: headers ? `${status} with Retry-After: ${headers['retry-after']} s` : `${status} answers`,
  group: 'http',
  kind: 'in-process',
  inject: ({ proxy }) => proxy.respond(status, headers),
  recover: async ({ proxy }) => {
    await proxy.waitFor((c) => c.injected >= HITS);
    proxy.passThrough();
  },
});

/** The fault × outcome table. */
export const faults: readonly Fault[] = [
  {
    order: 1,
    name: 'proxy paused, then resumed',
    group: 'connection',
    kind: 'in-process',
    inject: ({ proxy }) => proxy.pause(),
    recover: async ({ proxy }) => {
      await proxy.waitFor((c) => c.held >= 1);
      proxy.resume();
    },
  },
  {
    order: 2,
    name: 'connections dropped mid-request',
    group: 'connection',
    kind: 'in-process',
    inject: ({ proxy }) => proxy.dropConnections(),
    recover: async ({ proxy }) => {
      await proxy.waitFor((c) => c.dropped >= HITS);
      proxy.passThrough();
    },
  },
  statusFault(3, 500),
  statusFault(4, 502),
  statusFault(5, 503),
  statusFault(6, 429, { 'retry-after': '1' }),
  {
    order: 7,
    name: 'responses delayed by 3 s',
    group: 'connection',
    kind: 'in-process',
    inject: ({ proxy }) => proxy.delay(3_000),
    recover: async ({ proxy }) => {
      // Four batches answered 3 s late, then at full speed (40 batches at 3 s each would take a minute).
      await proxy.waitFor((c) => c.forwarded >= 4);
      proxy.passThrough();
    },
  },
  {
    order: 8,
    name: 'connection reset after the server stored the request',
    group: 'connection',
    kind: 'in-process',
    inject: ({ proxy }) => proxy.resetAfterForward(),
    recover: async ({ proxy }) => {
      await proxy.waitFor((c) => c.reset >= HITS);
      proxy.passThrough();
    },
  },
  {
    order: 9,
    name: 'corrupted responses (2xx with garbage body)',
    group: 'connection',
    kind: 'in-process',
    inject: ({ proxy }) => proxy.corruptResponses(),
    recover: async ({ proxy }) => {
      await proxy.waitFor((c) => c.corrupted >= HITS);
      proxy.passThrough();
    },
  },
  {
    order: 10,
    name: 'server SIGKILLed mid-burst, restarted',
    group: 'process',
    kind: 'in-process',
    midBurst: async ({ server }) => {
      await server.kill('SIGKILL');
    },
    recover: async ({ server, proxy }) => {
      // Down until the SDK has felt it (requests answered 502 by the proxy: connection refused).
      await proxy.waitFor((c) => c.upstreamErrors >= 1);
      await server.start();
    },
  },
  {
    order: 11,
    name: 'SDK process SIGKILLed mid-burst, restarted (outbox replay)',
    group: 'process',
    kind: 'sdk-kill',
  },
  {
    order: 12,
    name: 'disk full (ENOSPC) for the outbox while the server answers 503',
    group: 'disk',
    kind: 'in-process',
    inject: ({ proxy, disk }) => {
      proxy.respond(503);
      disk.full = true;
    },
    recover: async ({ proxy, disk }) => {
      await disk.whenRefused(1);
      disk.full = false;
      proxy.passThrough();
    },
  },
];

/** The faults a test file runs. */
export function faultsOf(group: Fault['group']): Fault[] {
  return faults.filter((fault) => fault.group === group);
}
