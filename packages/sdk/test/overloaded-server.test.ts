import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { rm } from 'node:fs/promises';
import { routes } from '@weft/protocol';
import * as weft from '@weft/sdk';
import { tempDir } from '@weft/test-server';
import { expect, it, onTestFinished } from 'vitest';
import { TRANSPORT_CHANNEL, type TransportEvent } from '../src/transport/index.js';
import { duplicateIds, FaultProxy, listServerCalls, useFileServer } from './support/index.js';

const CALLS = 12;

const server = useFileServer();

/** A client of `project` through a proxy in front of the test server, batching one call per request, four at once. */
async function clientThroughProxy(
  project: string,
  match: (request: { method: string; path: string }) => boolean,
  options: weft.WeftOptions = {},
) {
  const proxy = await FaultProxy.start({ upstream: server.url, match });
  onTestFinished(() => proxy.close());
  const outboxDir = await tempDir();
  onTestFinished(() => rm(outboxDir, { recursive: true, force: true }));
  const client = weft.init({
    project,
    url: proxy.url,
    outboxDir,
    handleExit: false,
    maxBatchItems: 1,
    maxConcurrentBatches: 4,
    ...options,
  });
  return { proxy, client };
}

/** The transport's events of `type` from now until the test ends. */
function transportEvents<T extends TransportEvent['type']>(type: T): Extract<TransportEvent, { type: T }>[] {
  const events: Extract<TransportEvent, { type: T }>[] = [];
  const listener = (message: unknown) => {
    const event = message as TransportEvent;
    if (event.type === type) events.push(event as Extract<TransportEvent, { type: T }>);
  };
  subscribe(TRANSPORT_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(TRANSPORT_CHANNEL, listener);
  });
  return events;
}

/** Every traced call is on the server once, sent, none in the outbox. */
async function expectEachCallOnce(client: weft.WeftClient, result: weft.FlushResult, project: string) {
  expect(result).toMatchObject({ sent: CALLS, spilled: 0, failed: 0, pending: 0 });
  const calls = await listServerCalls(server.url, project);
  expect(calls).toHaveLength(CALLS);
  expect(duplicateIds(calls)).toEqual([]);
  expect(client.diagnostics().outbox?.records ?? 0).toBe(0);
}

function traceCalls(): void {
  const work = weft.op(function work(n: number) {
    return n * 2;
  });
  for (let n = 0; n < CALLS; n++) work(n);
}

const isBatchPost = ({ method, path }: { method: string; path: string }) =>
  method === 'POST' && path === routes.callBatch();

it('regression: an overloaded server (503 + Retry-After, 8 times) opened the circuit and sent the calls to the outbox; now the SDK slows down and delivers every call once', async () => {
  const { proxy, client } = await clientThroughProxy('overloaded', isBatchPost);
  // As the server's admission answers: 503 WEFT_OVERLOADED with Retry-After, more than failureThreshold (5) times.
  proxy.failNext(8, { status: 503, headers: { 'retry-after': '1' } });
  const circuit = transportEvents('circuit');

  traceCalls();
  const result = await client.flush();

  expect(proxy.counters.injected).toBe(8);
  expect(circuit.map((event) => event.state)).toEqual([]);
  await expectEachCallOnce(client, result, 'overloaded');
});

it('a server that fails without Retry-After (503, /health too) still opens the circuit: the calls go to the outbox', async () => {
  const { proxy, client } = await clientThroughProxy('outage', () => true);
  proxy.respond(503);
  const circuit = transportEvents('circuit');

  traceCalls();
  const result = await client.flush({ timeoutMs: 3_000 });

  expect(circuit.map((event) => event.state)).toContain('open');
  expect(result).toMatchObject({ sent: 0, spilled: CALLS, failed: 0 });
  expect(client.diagnostics().outbox?.records).toBe(CALLS);
  expect(await listServerCalls(server.url, 'outage')).toEqual([]);
});

it('regression: a batch refused with 503 + Retry-After more often than maxAttempts went to the outbox; now the refusals spend no attempt and every call is delivered once', async () => {
  // One batch of every call, two attempts: before the fix the second refusal sent it to the outbox.
  const { proxy, client } = await clientThroughProxy('long-overload', isBatchPost, {
    maxBatchItems: CALLS,
    maxAttempts: 2,
  });
  proxy.failNext(10, { status: 503, headers: { 'retry-after': '0.01' } });

  traceCalls();
  const result = await client.flush();

  expect(proxy.counters.injected).toBe(10);
  await expectEachCallOnce(client, result, 'long-overload');
});

it('a batch that fails for real (503 without Retry-After) still spends its attempts and goes to the outbox', async () => {
  const { proxy, client } = await clientThroughProxy('failing-batch', isBatchPost, {
    maxBatchItems: CALLS,
    maxAttempts: 2,
  });
  proxy.respond(503);
  const spills = transportEvents('spill');

  traceCalls();
  const result = await client.flush({ timeoutMs: 3_000 });

  // Two requests, then the outbox: the attempts ran out (not the circuit, not the deadline).
  expect(spills[0]?.reason).toMatch(/after 2 attempts/);
  expect(result).toMatchObject({ sent: 0, spilled: CALLS, failed: 0 });
  expect(client.diagnostics().outbox?.records).toBe(CALLS);
  expect(await listServerCalls(server.url, 'failing-batch')).toEqual([]);
});

it('regression: waits an overloaded server asked for used the retry budget, so past maxRetriesInFlight (8) a refused batch went to the outbox; now they do not and every call is delivered once', async () => {
  // Twelve batches out at once, all refused with Retry-After: before the fix four went to the outbox.
  const { proxy, client } = await clientThroughProxy('overload-budget', isBatchPost, {
    maxConcurrentBatches: CALLS,
  });
  proxy.failNext(CALLS, { status: 503, headers: { 'retry-after': '0.05' } });
  const spills = transportEvents('spill');

  traceCalls();
  const result = await client.flush();

  expect(proxy.counters.injected).toBe(CALLS);
  expect(spills).toEqual([]);
  await expectEachCallOnce(client, result, 'overload-budget');
});
