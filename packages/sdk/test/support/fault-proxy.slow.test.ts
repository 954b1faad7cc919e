import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeMsgpack, routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Outbox } from '../../src/outbox/index.js';
import { ApiClient } from '../../src/transport/api-client.js';
import { Batcher, type BatcherOptions, type RecordOutcome } from '../../src/transport/batcher.js';
import { createReplaySender } from '../../src/outbox/index.js';
import { startTestServer } from '@weft/test-server';
import { duplicateIds, FaultProxy, listServerCalls } from './index.js';

const PROJECT = 'faults';
let serial = 0;
/** Fresh UUID-shaped ids per test run, so each test's calls are its own. */
const newId = () => {
  serial += 1;
  return `01890000-0000-7000-8000-${serial.toString(16).padStart(12, '0')}`;
};

/** An in-memory stand-in for the outbox: append-only, replayable through the real sender. */
class MemoryOutbox {
  records: Uint8Array[] = [];
  /** Like Outbox.append: a record given as parts is kept as their concatenation. */
  async append(records: readonly (Uint8Array | readonly Uint8Array[])[]): Promise<void> {
    this.records.push(...records.map((r) => (r instanceof Uint8Array ? r : Buffer.concat(r))));
  }
  /** Like Outbox.replay: hands everything to `send` and forgets it only when acknowledged. */
  async replay(send: (records: Uint8Array[]) => Promise<boolean>): Promise<boolean> {
    const batch = this.records;
    if (batch.length === 0) return true;
    if (!(await send(batch))) return false;
    this.records = this.records.slice(batch.length);
    return true;
  }
}

async function setup(options: Partial<BatcherOptions> & { apiKey?: string; token?: string } = {}) {
  const server = await startTestServer({ token: options.token });
  const proxy = await FaultProxy.start({ upstream: server.url });
  onTestFinished(() => proxy.close());
  const client = new ApiClient({ url: proxy.url, apiKey: options.apiKey, requestTimeoutMs: 10_000 });
  onTestFinished(() => client.destroy());
  const warnings: string[] = [];
  const batcher = new Batcher({
    project: PROJECT,
    client,
    backoff: { baseMs: 5, maxMs: 50 },
    maxBatchItems: 200,
    flushIntervalMs: 10,
    onWarning: (message) => warnings.push(message),
    ...options,
  });
  onTestFinished(() => batcher.close());
  const outcomes = new Map<string, RecordOutcome>();
  const ids: string[] = [];
  const add = (count: number) => {
    for (let i = 0; i < count; i++) {
      const id = newId();
      ids.push(id);
      const item = {
        type: 'complete',
        id,
        traceId: id,
        parentId: null,
        opName: 'step',
        startedAt: 1_700_000_000_000 + serial,
        endedAt: 1_700_000_000_001 + serial,
        inputs: { i },
        output: `out ${i}`,
      };
      batcher.add({ callId: id, bytes: encodeMsgpack(item), done: (outcome) => outcomes.set(id, outcome) });
    }
  };
  const serverIds = async () => {
    const calls = await listServerCalls(server.url, PROJECT, options.token);
    return calls.map((call) => call.id);
  };
  return { server, proxy, client, batcher, outcomes, ids, add, serverIds, warnings };
}

const statuses = (outcomes: Map<string, RecordOutcome>) => {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes.values()) counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
  return counts;
};

describe('FaultProxy + real server + Batcher', () => {
  it('pause/resume: requests are held at the proxy, then everything is delivered exactly once', async () => {
    const { proxy, batcher, outcomes, ids, add, serverIds } = await setup();
    proxy.pause();
    add(2_000);
    const flushed = batcher.flush();
    await proxy.waitFor((c) => c.held >= 2);
    expect(proxy.counters.forwarded).toBe(0);
    expect(outcomes.size).toBe(0);
    proxy.resume();
    await flushed;
    expect(statuses(outcomes)).toEqual({ sent: 2_000 });
    const stored = await serverIds();
    expect(stored).toHaveLength(2_000);
    expect(duplicateIds(stored)).toEqual([]);
    expect(new Set(stored)).toEqual(new Set(ids));
  });

  it('resetAfterForward: the server stored the batch, the client retried, one copy per id remains', async () => {
    const { proxy, batcher, outcomes, ids, add, serverIds } = await setup();
    proxy.resetAfterForward(1);
    add(150);
    await batcher.flush();
    expect(proxy.counters.reset).toBe(1);
    expect(proxy.counters.forwarded).toBeGreaterThanOrEqual(2); // the stored one and its retry
    expect(statuses(outcomes)).toEqual({ sent: 150 });
    expect(batcher.stats.retries).toBeGreaterThanOrEqual(1);
    const stored = await serverIds();
    expect(duplicateIds(stored)).toEqual([]);
    expect(new Set(stored)).toEqual(new Set(ids));
  });

  it.each([
    ['500', { status: 500 }],
    ['502', { status: 502 }],
    ['503 with Retry-After', { status: 503, headers: { 'retry-after': '0' } }],
    ['429 with Retry-After', { status: 429, headers: { 'retry-after': '0' } }],
  ])('failNext(%s): retried and delivered exactly once', async (_name, response) => {
    const { proxy, batcher, outcomes, ids, add, serverIds } = await setup({
      maxAttempts: 6,
      circuitFailureThreshold: 10,
    });
    proxy.failNext(3, response);
    add(300);
    await batcher.flush();
    expect(proxy.counters.injected).toBe(3);
    expect(statuses(outcomes)).toEqual({ sent: 300 });
    const stored = await serverIds();
    expect(stored.sort()).toEqual([...ids].sort());
  });

  it('dropConnections: sockets destroyed mid-request are retried', async () => {
    const { proxy, batcher, outcomes, ids, add, serverIds } = await setup({
      maxAttempts: 6,
      circuitFailureThreshold: 10,
    });
    proxy.dropConnections(2);
    add(300);
    await batcher.flush();
    expect(proxy.counters.dropped).toBe(2);
    expect(statuses(outcomes)).toEqual({ sent: 300 });
    expect((await serverIds()).sort()).toEqual([...ids].sort());
  });

  it('corruptResponses: an unreadable acknowledgement is retried, and the upsert keeps one copy', async () => {
    const { proxy, batcher, outcomes, ids, add, serverIds } = await setup();
    proxy.corruptResponses(1);
    add(100);
    await batcher.flush();
    expect(proxy.counters.corrupted).toBe(1);
    expect(statuses(outcomes)).toEqual({ sent: 100 });
    const stored = await serverIds();
    expect(duplicateIds(stored)).toEqual([]);
    expect(stored.sort()).toEqual([...ids].sort());
  });

  it('server down: records go to the outbox, the circuit opens, recovery triggers a replay, nothing lost', async () => {
    const outbox = new MemoryOutbox();
    let recovered!: () => void;
    const recovery = new Promise<void>((resolve) => {
      recovered = resolve;
    });
    const { server, batcher, outcomes, ids, add, serverIds, client } = await setup({
      outbox,
      maxAttempts: 3,
      circuitFailureThreshold: 3,
      onRecovered: () => recovered(),
    });
    add(100);
    await batcher.flush();
    await server.stop();
    add(400);
    await batcher.flush();
    expect(batcher.stats.circuit).not.toBe('closed');
    expect(statuses(outcomes)).toEqual({ sent: 100, spilled: 400 });
    expect(outbox.records).toHaveLength(400);
    await server.start();
    await recovery;
    expect(await outbox.replay(createReplaySender(client))).toBe(true);
    expect(outbox.records).toHaveLength(0);
    const stored = await serverIds();
    expect(duplicateIds(stored)).toEqual([]);
    expect(stored.sort()).toEqual([...ids].sort());
  });

  it('401: records are kept in the outbox with one warning, and replay with the right key delivers them', async () => {
    const outbox = new MemoryOutbox();
    const { batcher, outcomes, ids, add, serverIds, warnings, proxy } = await setup({
      outbox,
      token: 'right-token',
      apiKey: 'wrong-token',
    });
    add(250);
    await batcher.flush();
    expect(statuses(outcomes)).toEqual({ spilled: 250 });
    expect(warnings.filter((message) => message.includes('WEFT_API_KEY'))).toHaveLength(1);
    const fixed = new ApiClient({ url: proxy.url, apiKey: 'right-token' });
    onTestFinished(() => fixed.close());
    expect(await outbox.replay(createReplaySender(fixed))).toBe(true);
    expect((await serverIds()).sort()).toEqual([...ids].sort());
  });
});

describe('with the real durable outbox', () => {
  it('server down: spilled to segment files, replayed through the sender after recovery, each id once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-transport-outbox-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const outbox = await Outbox.open({ dir });
    onTestFinished(() => outbox.close());
    let recovered!: () => void;
    const recovery = new Promise<void>((resolve) => {
      recovered = resolve;
    });
    const { server, batcher, outcomes, ids, add, serverIds, client } = await setup({
      outbox,
      maxAttempts: 2,
      circuitFailureThreshold: 2,
      onRecovered: () => recovered(),
    });
    await server.stop();
    add(1_000);
    await batcher.flush();
    expect(statuses(outcomes)).toEqual({ spilled: 1_000 });
    expect(outbox.stats.records + outbox.stats.pendingRecords).toBe(1_000);
    await server.start();
    await recovery;
    const result = await outbox.replay(createReplaySender(client));
    expect(result).toMatchObject({ sent: 1_000, remaining: 0 });
    const stored = await serverIds();
    expect(duplicateIds(stored)).toEqual([]);
    expect(stored.sort()).toEqual([...ids].sort());
  });
});

describe('a 20,000-record burst through every fault in turn', () => {
  it('delivers each id exactly once and reports every record sent', async () => {
    const { proxy, batcher, outcomes, ids, add, serverIds } = await setup({
      maxBatchItems: 250,
      maxAttempts: 12,
    });
    // Faults switch on as the previous one is used up, while the burst is in flight.
    const script = (async () => {
      proxy.resetAfterForward(2);
      await proxy.waitFor((c) => c.reset >= 2);
      proxy.dropConnections(2);
      await proxy.waitFor((c) => c.dropped >= 2);
      proxy.corruptResponses(2);
      await proxy.waitFor((c) => c.corrupted >= 2);
      proxy.failNext(2, { status: 503, headers: { 'retry-after': '0' } });
      proxy.failNext(1, { status: 429, headers: { 'retry-after': '0' } });
      proxy.failNext(1, { status: 502 });
      await proxy.waitFor((c) => c.injected >= 4);
    })();
    add(20_000);
    await batcher.flush();
    await script;
    expect(proxy.counters).toMatchObject({ reset: 2, dropped: 2, corrupted: 2, injected: 4 });
    expect(statuses(outcomes)).toEqual({ sent: 20_000 });
    const stored = await serverIds();
    expect(stored).toHaveLength(20_000);
    expect(duplicateIds(stored)).toEqual([]);
    expect(new Set(stored)).toEqual(new Set(ids));
  });
});

describe('FaultProxy controls', () => {
  it('counts, holds, injects and passes through', async () => {
    const server = await startTestServer();
    const proxy = await FaultProxy.start({ upstream: server.url });
    onTestFinished(() => proxy.close());
    const client = new ApiClient({ url: proxy.url });
    onTestFinished(() => client.destroy());

    proxy.respond(503, { 'retry-after': '7' });
    const refused = await client.get(routes.health());
    expect(refused).toMatchObject({ status: 'retryable', retryAfterMs: 7_000 });

    proxy.passThrough();
    proxy.pause();
    const held = client.get(routes.health());
    await proxy.waitFor((c) => c.held === 1);
    expect(proxy.counters.forwarded).toBe(0);
    proxy.resume();
    await expect(held).resolves.toMatchObject({ status: 'sent', body: { status: 'ok' } });

    proxy.delay(20);
    await expect(client.get(routes.health())).resolves.toMatchObject({ status: 'sent' });
    proxy.passThrough();
    expect(proxy.counters).toMatchObject({ seen: 3, forwarded: 2, injected: 1, relayed: 2 });
  });

  it('answers 502 while the server is down, and forwards again after restart on the same port', async () => {
    const server = await startTestServer();
    const proxy = await FaultProxy.start({ upstream: server.url });
    onTestFinished(() => proxy.close());
    const client = new ApiClient({ url: proxy.url });
    onTestFinished(() => client.destroy());
    await server.stop();
    const down = await client.get(routes.health());
    expect(down).toMatchObject({ status: 'retryable' });
    expect(proxy.counters.upstreamErrors).toBe(1);
    await server.start();
    await expect(client.get(routes.health())).resolves.toMatchObject({ status: 'sent' });
  });
});
