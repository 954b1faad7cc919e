import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import * as weft from 'weft';
import { resetWeft } from '../src/testing/index.js';
import { waitForOutboxDrained } from './faults/outbox-drained.js';
import { duplicateIds, FaultProxy, listServerCalls, startTestServer } from './harness/index.js';

const CALLS = 600;
const VALUE_BYTES = 16 * 1024;
/** Small bounds, so a burst of 600 calls of 16 KB (about 10 MB) overruns the queue many times over. */
const bounds = { maxQueueBytes: 256 * 1024, maxBatchBytes: 64 * 1024, maxConcurrentBatches: 2 };

afterEach(async () => {
  await resetWeft();
});

/** A real server behind a real proxy that answers every request `delayMs` late: healthy, but slower than the burst. */
async function slowServer(delayMs: number) {
  const server = await startTestServer();
  const proxy = await FaultProxy.start({ upstream: server.url });
  onTestFinished(() => proxy.close());
  proxy.delay(delayMs);
  const outboxDir = await mkdtemp(join(tmpdir(), 'weft-backpressure-'));
  onTestFinished(() => rm(outboxDir, { recursive: true, force: true }));
  return { server, proxy, outboxDir };
}

/** Starts every call on one turn, each returning a fresh string of its own (like a decoded HTTP response). */
async function burst(client: weft.WeftClient): Promise<string[]> {
  const filler = 'x'.repeat(VALUE_BYTES);
  const answer = client.op(async function answer(i: number) {
    return { text: Buffer.from(`${i}:${filler}`.slice(0, VALUE_BYTES)).toString('latin1') };
  });
  await Promise.all(Array.from({ length: CALLS }, (_, i) => answer(i)));
  return [];
}

describe('a healthy server slower than the burst', () => {
  it('holds calls as counted snapshots while the queue is full: nothing spilled, nothing lost, both bounds held', async () => {
    const { server, proxy, outboxDir } = await slowServer(25);
    const maxWaitingBytes = 32 * 1024 * 1024;
    const client = weft.init({
      project: 'backpressure-slow',
      url: proxy.url,
      outboxDir,
      handleExit: false,
      ...bounds,
      maxWaitingBytes,
    });
    await burst(client);
    const result = await client.flush();
    expect(result).toMatchObject({ sent: CALLS, spilled: 0, failed: 0, pending: 0 });
    const { pipeline, queue, delivery } = client.diagnostics();
    expect(delivery).toMatchObject({ spilled: 0, failed: 0 });
    // The encoded records never outgrew the queue's bound...
    expect(queue.peakHeldBytes).toBeLessThanOrEqual(bounds.maxQueueBytes);
    // ...because the calls waited in the pipeline, as snapshots, within their own bound.
    expect(pipeline.peakWaitingBytes).toBeGreaterThan(bounds.maxQueueBytes);
    expect(pipeline.peakWaitingBytes).toBeLessThanOrEqual(maxWaitingBytes);
    expect(pipeline.waitingBytes).toBe(0);
    const calls = await listServerCalls(server.url, 'backpressure-slow');
    expect(calls).toHaveLength(CALLS);
    expect(duplicateIds(calls)).toEqual([]);
  }, 60_000);

  it('past maxWaitingBytes sends the excess to the outbox instead of growing; every call still arrives once', async () => {
    const { server, proxy, outboxDir } = await slowServer(25);
    const maxWaitingBytes = 1024 * 1024;
    const client = weft.init({
      project: 'backpressure-bound',
      url: proxy.url,
      outboxDir,
      handleExit: false,
      ...bounds,
      maxWaitingBytes,
    });
    await burst(client);
    const result = await client.flush();
    expect(result).toMatchObject({ failed: 0, pending: 0 });
    expect(result.sent + result.spilled).toBe(CALLS);
    expect(result.spilled).toBeGreaterThan(0);
    expect(client.diagnostics().queue.peakHeldBytes).toBeLessThanOrEqual(bounds.maxQueueBytes);
    expect(await waitForOutboxDrained(client)).toBe(0);
    const calls = await listServerCalls(server.url, 'backpressure-bound');
    expect(calls).toHaveLength(CALLS);
    expect(duplicateIds(calls)).toEqual([]);
  }, 60_000);
});
