import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { decodeMsgpack, encodeMsgpack } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { ApiClient } from './api-client.js';
import { Batcher, type BatcherOptions, type CallRecord, type RecordOutcome } from './batcher.js';
import { decodeOutboxRecord } from './outbox-records.js';
import { ManualTimers } from '../../test/support/transport/manual-timers.js';
import { type ScriptedResponse, ScriptedServer } from '../../test/support/transport/scripted-server.js';
import { TRANSPORT_CHANNEL, type TransportEvent } from './transport-events.js';

const id = (n: number) => `01890000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

/** A record for call `n` whose outcome lands in `outcomes`. */
function record(n: number, outcomes: Map<string, RecordOutcome>, padding = 0): CallRecord {
  const item = {
    type: 'complete',
    id: id(n),
    traceId: id(n),
    parentId: null,
    opName: 'op',
    startedAt: n,
    endedAt: n + 1,
    inputs: { pad: 'x'.repeat(padding) },
  };
  return {
    callId: id(n),
    bytes: encodeMsgpack(item),
    done: (outcome) => {
      if (outcomes.has(id(n))) throw new Error(`done called twice for ${n}`);
      outcomes.set(id(n), outcome);
    },
  };
}

/** An outbox kept in memory: the batcher only needs `append`. */
class MemoryOutbox {
  readonly records: Uint8Array[] = [];
  failWith: Error | undefined;
  /** How many appends fail with `failWith` before the disk has room again. */
  failuresLeft = Number.POSITIVE_INFINITY;
  appendCalls = 0;
  /** Record bytes of each append. */
  readonly appendBytes: number[] = [];
  async append(payloads: readonly (Uint8Array | readonly Uint8Array[])[]): Promise<void> {
    this.appendCalls += 1;
    const records = payloads.map((p) => (p instanceof Uint8Array ? p : Buffer.concat(p)));
    this.appendBytes.push(records.reduce((sum, r) => sum + r.byteLength, 0));
    if (this.failWith && this.failuresLeft-- > 0) throw this.failWith;
    this.records.push(...records);
  }
  get callIds(): string[] {
    return this.records.map((bytes) => {
      const decoded = decodeOutboxRecord(bytes);
      if (typeof decoded === 'string') throw new Error(decoded);
      return (decodeMsgpack(decoded.itemBytes) as { id: string }).id;
    });
  }
}

/** A promise the test resolves by hand, to hold a server answer. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Outcomes by call id, and a wait for the moment a condition on them holds:
 * tests wait for the batcher's own results instead of a number of loop turns.
 */
class Outcomes extends Map<string, RecordOutcome> {
  #waiters: { test: () => boolean; resolve: () => void }[] = [];

  override set(callId: string, outcome: RecordOutcome): this {
    super.set(callId, outcome);
    const ready = this.#waiters.filter((waiter) => waiter.test());
    if (ready.length > 0) this.#waiters = this.#waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve();
    return this;
  }

  /** How many records ended with `status`. */
  count(status: RecordOutcome['status']): number {
    return [...this.values()].filter((outcome) => outcome.status === status).length;
  }

  /** Resolves once `test` holds: at once if it does, else after the outcome that makes it so. */
  until(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }
}

/**
 * Resolves once the callbacks the batcher already queued with setImmediate have
 * run: it defers its pump and its overflow spills that way, and Node runs the
 * immediate queue in order. For asserting that something did NOT happen; every
 * wait for something that does happen is on an event or an outcome.
 */
const afterDeferredWork = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The next event on the transport channel that `matches`; call it before causing the event. */
function nextTransportEvent(matches: (event: TransportEvent) => boolean): Promise<TransportEvent> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      const event = message as TransportEvent;
      if (!matches(event)) return;
      unsubscribe(TRANSPORT_CHANNEL, listener);
      resolve(event);
    };
    subscribe(TRANSPORT_CHANNEL, listener);
    onTestFinished(() => {
      unsubscribe(TRANSPORT_CHANNEL, listener);
    });
  });
}

let server: ScriptedServer;
let client: ApiClient;
let timers: ManualTimers;
let warnings: { message: string; details: Record<string, unknown> }[];
const batchers: Batcher[] = [];

beforeEach(async () => {
  server = await ScriptedServer.start();
  client = new ApiClient({ url: server.url });
  timers = new ManualTimers();
  warnings = [];
});
afterEach(async () => {
  server.script = () => ({ status: 200, body: {} });
  await Promise.all(batchers.splice(0).map((batcher) => timers.runUntil(batcher.close())));
  await client.close();
  await server.close();
});

function makeBatcher(options: Partial<BatcherOptions> = {}): Batcher {
  const batcher = new Batcher({
    project: 'proj',
    client,
    timers,
    random: () => 0.5,
    onWarning: (message, details) => warnings.push({ message, details }),
    ...options,
  });
  batchers.push(batcher);
  return batcher;
}

const ids = (batch: { items: { id: string }[] }) => batch.items.map((item) => item.id);

describe('Batcher batching', () => {
  it('sends a full batch at once, without waiting for the interval', async () => {
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxBatchItems: 10 });
    for (let n = 0; n < 20; n++) batcher.add(record(n, outcomes));
    await server.waitForRequests(2);
    expect(server.batches.map((batch) => batch.items.length)).toEqual([10, 10]);
    await batcher.flush();
    expect([...outcomes.values()].every((outcome) => outcome.status === 'sent')).toBe(true);
  });

  it('holds a partial batch until flushIntervalMs passes, then sends it', async () => {
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxBatchItems: 10, flushIntervalMs: 250 });
    for (let n = 0; n < 3; n++) batcher.add(record(n, outcomes));
    // A partial batch asks for the interval and nothing else: no send is scheduled.
    expect(timers.pendingDelays).toEqual([250]);
    await afterDeferredWork();
    expect(batcher.stats).toMatchObject({ queuedRecords: 3, inFlightBatches: 0 });
    timers.advance(249);
    expect(timers.pendingDelays).toEqual([250]);
    expect(batcher.stats).toMatchObject({ queuedRecords: 3, inFlightBatches: 0 });
    // The interval timer starts the request as it fires.
    timers.advance(1);
    expect(batcher.stats).toMatchObject({ queuedRecords: 0, inFlightBatches: 1 });
    await server.waitForRequests(1);
    expect(ids(server.batches[0]!)).toEqual([id(0), id(1), id(2)]);
  });

  it('bounds each batch body by maxBatchBytes', async () => {
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxBatchBytes: 1024 });
    for (let n = 0; n < 12; n++) batcher.add(record(n, outcomes, 280));
    await timers.runUntil(batcher.flush());
    const sizes = server.batches.map((batch) => encodeMsgpack(batch).byteLength);
    expect(server.batches.length).toBeGreaterThanOrEqual(4);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(1024);
    expect(new Set(server.batches.flatMap(ids))).toEqual(
      new Set(Array.from({ length: 12 }, (_, n) => id(n))),
    );
    expect(server.itemsAccepted).toBe(12);
  });

  it('sends a record larger than maxBatchBytes alone', async () => {
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxBatchBytes: 1024 });
    batcher.add(record(1, outcomes, 10));
    batcher.add(record(2, outcomes, 5_000));
    batcher.add(record(3, outcomes, 10));
    await timers.runUntil(batcher.flush());
    expect(server.batches.map(ids)).toEqual([[id(1)], [id(2)], [id(3)]]);
    expect(outcomes.get(id(2))).toEqual({ status: 'sent' });
  });

  it('keeps at most maxConcurrentBatches requests out', async () => {
    const hold = deferred<ScriptedResponse>();
    server.script = () => hold.promise;
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxBatchItems: 1, maxConcurrentBatches: 2 });
    for (let n = 0; n < 5; n++) batcher.add(record(n, outcomes));
    const flushed = batcher.flush();
    // flush() starts what the bound allows at once; the rest waits for a slot.
    expect(batcher.stats).toMatchObject({ inFlightBatches: 2, queuedRecords: 3 });
    await server.waitForRequests(2);
    expect(server.requests).toHaveLength(2);
    expect(batcher.stats).toMatchObject({ inFlightBatches: 2, queuedRecords: 3 });
    hold.resolve({ status: 200, body: {} });
    await flushed;
    expect(server.itemsAccepted).toBe(5);
  });
});

describe('Batcher flush', () => {
  it('resolves only when every record added before it has an outcome, and is not starved by later ones', async () => {
    const first = deferred<ScriptedResponse>();
    const second = deferred<ScriptedResponse>();
    server.script = (_request, index) => (index === 0 ? first.promise : second.promise);
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxConcurrentBatches: 2 });
    for (let n = 0; n < 3; n++) batcher.add(record(n, outcomes));
    let flushed = false;
    const flush = batcher.flush().then(() => {
      flushed = true;
    });
    await server.waitForRequests(1);
    for (let n = 3; n < 6; n++) batcher.add(record(n, outcomes));
    const later = batcher.flush();
    await server.waitForRequests(2);
    // Both answers are held: nothing has an outcome, so neither flush may have resolved.
    expect(outcomes.size).toBe(0);
    expect(flushed).toBe(false);
    first.resolve({ status: 200, body: {} });
    await flush;
    expect([0, 1, 2].map((n) => outcomes.get(id(n))?.status)).toEqual(['sent', 'sent', 'sent']);
    expect(outcomes.has(id(3))).toBe(false); // still held by the server: the first flush did not wait for it
    second.resolve({ status: 200, body: {} });
    await later;
    expect(outcomes.size).toBe(6);
  });

  it('resolves at once when nothing is pending', async () => {
    const batcher = makeBatcher();
    await batcher.flush();
    expect(batcher.stats).toMatchObject({ queuedRecords: 0, inFlightBatches: 0, sent: 0 });
  });

  it("spillHeld (a flush's deadline) sends what waits to retry to the outbox, not to the server again; later records are sent", async () => {
    server.script = (_request, index) => (index === 0 ? { status: 503 } : { status: 200, body: {} });
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox, maxAttempts: 5, circuitFailureThreshold: 100 });
    for (let n = 0; n < 3; n++) batcher.add(record(n, outcomes));
    const flushed = batcher.flush();
    const retry = nextTransportEvent((event) => event.type === 'retry');
    await server.waitForRequests(1);
    await retry; // the batch sleeps before its second attempt
    batcher.spillHeld();
    await flushed;
    expect([0, 1, 2].map((n) => outcomes.get(id(n))?.status)).toEqual(['spilled', 'spilled', 'spilled']);
    expect(outbox.callIds).toEqual([id(0), id(1), id(2)]);
    expect(server.batches).toHaveLength(1);
    // The fallback is for what was held then: a record added afterwards goes to the server.
    batcher.add(record(3, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(3))?.status).toBe('sent');
  });

  it('spillHeld does nothing without an outbox: records wait for the server', async () => {
    server.script = (_request, index) => (index === 0 ? { status: 503 } : { status: 200, body: {} });
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ circuitFailureThreshold: 100 });
    batcher.add(record(0, outcomes));
    const flushed = batcher.flush();
    const retry = nextTransportEvent((event) => event.type === 'retry');
    await server.waitForRequests(1);
    await retry;
    batcher.spillHeld();
    await timers.runUntil(flushed);
    expect(outcomes.get(id(0))?.status).toBe('sent');
  });
});

describe('Batcher retries', () => {
  it('retries 500 and 503 with exponential backoff and full jitter, then sends', async () => {
    const events: TransportEvent[] = [];
    const listener = (event: unknown) => events.push(event as TransportEvent);
    subscribe(TRANSPORT_CHANNEL, listener);
    onTestFinished(() => {
      unsubscribe(TRANSPORT_CHANNEL, listener);
    });
    server.script = (_request, index) =>
      index < 2 ? { status: index === 0 ? 500 : 503 } : { status: 200, body: {} };
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ backoff: { baseMs: 100, maxMs: 10_000 } });
    batcher.add(record(1, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(1))).toEqual({ status: 'sent' });
    expect(server.batches).toHaveLength(3);
    // random() = 0.5: attempt 1 → 0.5 · 100, attempt 2 → 0.5 · 200
    expect(timers.requested).toContain(50);
    expect(timers.requested).toContain(100);
    expect(batcher.stats.retries).toBe(2);
    expect(
      events
        .filter((event) => event.type === 'retry')
        .map((event) => event.type === 'retry' && event.delayMs),
    ).toEqual([50, 100]);
  });

  it('honours Retry-After on 429 (seconds) before retrying', async () => {
    server.script = (_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200, body: {} };
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ random: () => 0 });
    batcher.add(record(1, outcomes));
    const flushed = batcher.flush();
    const retry = nextTransportEvent((event) => event.type === 'retry');
    await server.waitForRequests(1);
    expect(await retry).toMatchObject({ delayMs: 3_000 });
    expect(timers.pendingDelays).toEqual([3_000]);
    // The retry waits on that timer alone: 1 ms short of it, it is still pending.
    timers.advance(2_999);
    expect(timers.pendingDelays).toEqual([3_000]);
    expect(server.requests).toHaveLength(1);
    timers.advance(1);
    await flushed;
    expect(server.requests).toHaveLength(2);
    expect(outcomes.get(id(1))).toEqual({ status: 'sent' });
  });

  it('honours Retry-After given as an HTTP-date', async () => {
    const at = new Date(timers.now() + 5_000).toUTCString();
    server.script = (_request, index) =>
      index === 0 ? { status: 503, headers: { 'retry-after': at } } : { status: 200, body: {} };
    // The client parses the date against the real clock; the batcher's delay is what the client computed.
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ random: () => 0 });
    batcher.add(record(1, outcomes));
    const flushed = batcher.flush();
    const retry = nextTransportEvent((event) => event.type === 'retry');
    await server.waitForRequests(1);
    await retry;
    const delay = timers.pendingDelays.find((ms) => ms > 0) ?? 0;
    const expected = Math.max(0, Date.parse(at) - Date.now());
    expect(Math.abs(delay - expected)).toBeLessThan(2_000);
    await timers.runUntil(flushed);
    expect(outcomes.get(id(1))).toEqual({ status: 'sent' });
  });

  it('spills a batch to the outbox after maxAttempts', async () => {
    server.script = () => ({ status: 503 });
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox, maxAttempts: 3, circuitFailureThreshold: 100 });
    for (let n = 0; n < 4; n++) batcher.add(record(n, outcomes));
    await timers.runUntil(batcher.flush());
    expect(server.batches).toHaveLength(3);
    expect([...outcomes.values()].map((o) => o.status)).toEqual(['spilled', 'spilled', 'spilled', 'spilled']);
    expect(outbox.callIds).toEqual([id(0), id(1), id(2), id(3)]);
    expect(batcher.stats).toMatchObject({ spilled: 4, sent: 0, failed: 0 });
  });

  it('fails a batch clearly after maxAttempts when there is no outbox, never reporting it sent', async () => {
    server.script = () => ({ status: 500, body: { error: { code: 'E', message: 'database is locked' } } });
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxAttempts: 2, circuitFailureThreshold: 100 });
    batcher.add(record(1, outcomes));
    await timers.runUntil(batcher.flush());
    const outcome = outcomes.get(id(1));
    expect(outcome?.status).toBe('failed');
    if (outcome?.status !== 'failed') return;
    expect(outcome.error.code).toBe('WEFT_DELIVERY_FAILED');
    expect(outcome.error.message).toContain('database is locked');
    expect(warnings.some((w) => w.message.includes('no outbox'))).toBe(true);
  });

  it('spills past the retry budget instead of queueing more retries', async () => {
    server.script = () => ({ status: 503 });
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    const batcher = makeBatcher({
      outbox,
      maxBatchItems: 1,
      maxConcurrentBatches: 4,
      maxRetriesInFlight: 1,
      circuitFailureThreshold: 100,
    });
    const retry = nextTransportEvent((event) => event.type === 'retry');
    for (let n = 0; n < 4; n++) batcher.add(record(n, outcomes));
    await server.waitForRequests(4);
    await retry;
    await outcomes.until(() => outcomes.size === 3);
    // One batch waits to retry; the other three went to the outbox at once.
    expect(outcomes.count('spilled')).toBe(3);
    expect(outbox.records).toHaveLength(3);
    expect(batcher.stats.inFlightBatches).toBe(1);
    await timers.runUntil(batcher.flush());
    expect(outcomes.size).toBe(4);
  });
});

describe('Batcher rejections', () => {
  it('fails exactly the record a 400 names by index and sends the rest again at once', async () => {
    server.script = (_request, index) =>
      index === 0
        ? {
            status: 400,
            body: {
              error: {
                code: 'WEFT_INVALID_REQUEST',
                message: 'opName must not be empty',
                path: 'items.2.opName',
                index: 2,
              },
            },
          }
        : { status: 200, body: {} };
    const outcomes = new Outcomes();
    const batcher = makeBatcher();
    for (let n = 0; n < 5; n++) batcher.add(record(n, outcomes));
    await timers.runUntil(batcher.flush());
    expect(server.batches.map(ids)).toEqual([[0, 1, 2, 3, 4].map(id), [0, 1, 3, 4].map(id)]);
    const bad = outcomes.get(id(2));
    expect(bad?.status).toBe('failed');
    if (bad?.status === 'failed') {
      expect(bad.error.code).toBe('WEFT_RECORD_REJECTED');
      expect(bad.error.message).toContain('opName must not be empty');
      expect(bad.error.message).toContain(id(2));
    }
    for (const n of [0, 1, 3, 4]) expect(outcomes.get(id(n))).toEqual({ status: 'sent' });
    expect(warnings.filter((w) => w.message.includes('opName must not be empty'))).toHaveLength(1);
  });

  it('isolates a bad record by splitting when the 400 names no index', async () => {
    const bad = id(5);
    server.script = (request) =>
      (request.body as { items: { id: string }[] }).items.some((item) => item.id === bad)
        ? { status: 400, body: { error: { code: 'WEFT_INVALID_REQUEST', message: 'bad item' } } }
        : { status: 200, body: {} };
    const outcomes = new Outcomes();
    const batcher = makeBatcher();
    for (let n = 0; n < 8; n++) batcher.add(record(n, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(bad)?.status).toBe('failed');
    for (const n of [0, 1, 2, 3, 4, 6, 7]) expect(outcomes.get(id(n))).toEqual({ status: 'sent' });
    expect(server.calls.size).toBe(7);
    expect(server.requests.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(8)));
  });

  it('splits on 413 and fails a single record that is still too large', async () => {
    server.script = (request) => {
      const items = (request.body as { items: { inputs: { pad: string } }[] }).items;
      const size = items.reduce((sum, item) => sum + item.inputs.pad.length, 0);
      return size > 2_000
        ? { status: 413, body: { error: { code: 'WEFT_TOO_LARGE', message: 'body too large' } } }
        : { status: 200, body: {} };
    };
    const outcomes = new Outcomes();
    const batcher = makeBatcher();
    for (let n = 0; n < 6; n++) batcher.add(record(n, outcomes, 600));
    batcher.add(record(99, outcomes, 3_000));
    await timers.runUntil(batcher.flush());
    const huge = outcomes.get(id(99));
    expect(huge?.status).toBe('failed');
    if (huge?.status === 'failed') expect(huge.error.code).toBe('WEFT_RECORD_TOO_LARGE');
    for (let n = 0; n < 6; n++) expect(outcomes.get(id(n))).toEqual({ status: 'sent' });
  });

  it('spills on 401 and warns once to check WEFT_API_KEY', async () => {
    server.script = () => ({
      status: 401,
      body: { error: { code: 'WEFT_UNAUTHORIZED', message: 'bad token' } },
    });
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox, maxBatchItems: 2 });
    for (let n = 0; n < 6; n++) batcher.add(record(n, outcomes));
    await timers.runUntil(batcher.flush());
    expect(server.batches).toHaveLength(3);
    expect([...outcomes.values()].every((o) => o.status === 'spilled')).toBe(true);
    expect(outbox.records).toHaveLength(6);
    expect(warnings.filter((w) => w.message.includes('WEFT_API_KEY'))).toHaveLength(1);
  });

  it('keeps records the outbox refuses (disk full) in memory and offers them again, never failing them', async () => {
    server.script = () => ({ status: 403 });
    const outbox = new MemoryOutbox();
    outbox.failWith = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    outbox.failuresLeft = 2;
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox });
    batcher.add(record(1, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(1))).toEqual({ status: 'spilled' });
    expect(outbox.appendCalls).toBe(3);
    expect(outbox.callIds).toEqual([id(1)]);
    expect(warnings.some((w) => w.message.includes('kept in memory and retried'))).toBe(true);
  });

  it('fails with WEFT_OUTBOX_WRITE_FAILED only what the outbox refuses past the memory bound', async () => {
    const hold = deferred<ScriptedResponse>();
    server.script = () => hold.promise;
    const outbox = new MemoryOutbox();
    outbox.failWith = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox, maxQueueBytes: 1_000, maxBatchItems: 1, maxConcurrentBatches: 1 });
    for (let n = 0; n < 10; n++) batcher.add(record(n, outcomes, 200));
    // The overflow goes to the outbox in one append; its refusal settles all of it at once.
    await outcomes.until(() => outcomes.count('failed') > 0);
    const failed = [...outcomes.values()].filter((o) => o.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) {
      if (outcome.status === 'failed') expect(outcome.error.code).toBe('WEFT_OUTBOX_WRITE_FAILED');
    }
    hold.resolve({ status: 200, body: {} });
    outbox.failWith = undefined;
    await timers.runUntil(batcher.flush());
    expect(outcomes.size).toBe(10);
    expect([...outcomes.values()].filter((o) => o.status !== 'failed').length).toBe(10 - failed.length);
  });
});

describe('Batcher memory bound', () => {
  it('sends records past maxQueueBytes to the outbox at once, never blocking add', async () => {
    const hold = deferred<ScriptedResponse>();
    server.script = () => hold.promise;
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox, maxQueueBytes: 2_000, maxBatchItems: 1, maxConcurrentBatches: 1 });
    for (let n = 0; n < 20; n++) batcher.add(record(n, outcomes, 200));
    // The server holds every answer, so a record can only have an outcome by being spilled.
    await outcomes.until(() => outcomes.count('spilled') > 0);
    expect(server.itemsAccepted).toBe(0);
    expect(outbox.records.length).toBeGreaterThan(0);
    expect(batcher.stats.queuedBytes).toBeLessThanOrEqual(2_000);
    hold.resolve({ status: 200, body: {} });
    await timers.runUntil(batcher.flush());
    const statuses = [...outcomes.values()].map((o) => o.status);
    expect(statuses).toHaveLength(20);
    expect(statuses.filter((s) => s === 'spilled')).toHaveLength(outbox.records.length);
    expect(statuses.filter((s) => s === 'sent').length + outbox.records.length).toBe(20);
  });

  it('spills a large overflow a bounded slice per turn, so the event loop keeps turning', async () => {
    const hold = deferred<ScriptedResponse>();
    server.script = () => hold.promise;
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ outbox, maxQueueBytes: 1_000, maxBatchItems: 1, maxConcurrentBatches: 1 });
    for (let n = 0; n < 12; n++) batcher.add(record(n, outcomes, 700_000));
    // Every one of them is past maxQueueBytes: all twelve go to the outbox.
    await outcomes.until(() => outcomes.size === 12);
    expect(outcomes.count('spilled')).toBe(12);
    // 2 MiB per turn: two of these records per append, never all of them at once.
    expect(outbox.appendBytes.length).toBeGreaterThanOrEqual(6);
    for (const bytes of outbox.appendBytes) expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    hold.resolve({ status: 200, body: {} });
    await timers.runUntil(batcher.flush());
    expect(outcomes.size).toBe(12);
    expect(outbox.records).toHaveLength(12);
  });

  it('fails records past maxQueueBytes with a clear error when there is no outbox', async () => {
    const hold = deferred<ScriptedResponse>();
    server.script = () => hold.promise;
    const outcomes = new Outcomes();
    const batcher = makeBatcher({ maxQueueBytes: 1_000, maxBatchItems: 1, maxConcurrentBatches: 1 });
    for (let n = 0; n < 10; n++) batcher.add(record(n, outcomes, 200));
    await outcomes.until(() => outcomes.count('failed') > 0);
    const failed = [...outcomes.values()].filter((o) => o.status === 'failed');
    expect(failed[0]).toMatchObject({ error: { code: 'WEFT_DELIVERY_FAILED' } });
    hold.resolve({ status: 200, body: {} });
    await timers.runUntil(batcher.flush());
    expect(outcomes.size).toBe(10);
  });
});

describe('Batcher circuit', () => {
  it('opens after consecutive failures, spills new batches without requests, probes, and recovers', async () => {
    let healthy = false;
    server.script = (request) =>
      healthy ? { status: 200, body: request.path === '/health' ? { status: 'ok' } : {} } : { status: 503 };
    const outbox = new MemoryOutbox();
    const outcomes = new Outcomes();
    let recovered = 0;
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const batcher = makeBatcher({
      outbox,
      circuitFailureThreshold: 3,
      maxAttempts: 10,
      onWarning: (message, details) => {
        warnings.push({ message, details });
        if (message.includes('keeps failing')) opened();
      },
      onRecovered: () => {
        recovered += 1;
      },
    });
    batcher.add(record(1, outcomes));
    const flushed = batcher.flush();
    await timers.runUntil(open);
    await flushed;
    expect(batcher.stats.circuit).toBe('open');
    expect(outcomes.get(id(1))).toEqual({ status: 'spilled' });
    const batchesWhenOpened = server.batches.length;
    expect(batchesWhenOpened).toBe(3);
    expect(warnings.some((w) => w.message.includes('keeps failing'))).toBe(true);

    // While open, new records go straight to the outbox: no batch request.
    for (let n = 2; n < 5; n++) batcher.add(record(n, outcomes));
    await batcher.flush();
    expect([2, 3, 4].map((n) => outcomes.get(id(n))?.status)).toEqual(['spilled', 'spilled', 'spilled']);
    expect(server.batches.length).toBe(batchesWhenOpened);

    // A failed probe keeps it open; a successful one closes it and reports recovery.
    const reopened = nextTransportEvent((event) => event.type === 'circuit' && event.state === 'open');
    timers.fireNext();
    expect(await reopened).toMatchObject({ previous: 'half-open' });
    expect(server.requests).toHaveLength(batchesWhenOpened + 1);
    expect(server.requests.at(-1)!.path).toBe('/health');
    expect(batcher.stats.circuit).toBe('open');
    healthy = true;
    const closed = nextTransportEvent((event) => event.type === 'circuit' && event.state === 'closed');
    timers.fireNext();
    expect(await closed).toMatchObject({ previous: 'half-open' });
    expect(server.requests.at(-1)!.path).toBe('/health');
    expect(batcher.stats.circuit).toBe('closed');
    expect(recovered).toBe(1);

    batcher.add(record(5, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(5))).toEqual({ status: 'sent' });
  });

  it('without an outbox, holds records in memory while open and sends them on recovery', async () => {
    let healthy = false;
    server.script = (request) =>
      healthy ? { status: 200, body: request.path === '/health' ? { status: 'ok' } : {} } : { status: 503 };
    const outcomes = new Outcomes();
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const batcher = makeBatcher({
      circuitFailureThreshold: 2,
      maxAttempts: 10,
      onWarning: (message) => {
        if (message.includes('keeps failing')) opened();
      },
    });
    batcher.add(record(1, outcomes));
    const flushed = batcher.flush();
    await timers.runUntil(open);
    expect(batcher.stats.circuit).not.toBe('closed');
    expect(outcomes.size).toBe(0); // nothing failed: held in memory
    batcher.add(record(2, outcomes));
    // Held in memory while the circuit is open: queued, with no outcome and no request of its own.
    expect(batcher.stats).toMatchObject({ queuedRecords: 1 });
    const batchesWhileOpen = server.batches.length;
    expect(outcomes.size).toBe(0);
    healthy = true;
    await timers.runUntil(flushed);
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(1))).toEqual({ status: 'sent' });
    expect(outcomes.get(id(2))).toEqual({ status: 'sent' });
    expect(batcher.stats.circuit).toBe('closed');
    expect(server.batches.length).toBeGreaterThan(batchesWhileOpen);
  });
});

describe('Batcher lifecycle and options', () => {
  it('close with a deadline resolves by it while a request is still out, and the flush goes on', async () => {
    const hold = deferred<ScriptedResponse>();
    server.script = () => hold.promise;
    const outcomes = new Outcomes();
    const batcher = makeBatcher();
    batcher.add(record(1, outcomes));
    let closed = false;
    const closing = batcher.close({ timeoutMs: 100 }).then(() => {
      closed = true;
    });
    await server.waitForRequests(1);
    timers.advance(99);
    await afterDeferredWork();
    expect(closed).toBe(false);
    timers.advance(1);
    await closing;
    expect(outcomes.size).toBe(0); // the request is still out
    hold.resolve({ status: 200, body: {} });
    await batcher.close(); // joins the first close, which ends once the record is delivered
    expect(outcomes.get(id(1))).toEqual({ status: 'sent' });
  });

  it('close() flushes, is idempotent, and fails records added afterwards', async () => {
    const outcomes = new Outcomes();
    const batcher = makeBatcher();
    batcher.add(record(1, outcomes));
    const closing = batcher.close();
    expect(batcher.close()).toBe(closing);
    await timers.runUntil(closing);
    expect(outcomes.get(id(1))).toEqual({ status: 'sent' });
    batcher.add(record(2, outcomes));
    expect(outcomes.get(id(2))).toMatchObject({ status: 'failed', error: { code: 'WEFT_CLOSED' } });
  });

  it('fails a record without bytes instead of throwing from add()', async () => {
    const outcomes = new Outcomes();
    const batcher = makeBatcher();
    const broken = { ...record(1, outcomes), bytes: undefined as unknown as Uint8Array };
    expect(() => batcher.add(broken)).not.toThrow();
    batcher.add(record(2, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(1))).toMatchObject({ status: 'failed', error: { code: 'WEFT_INVALID_RECORD' } });
    expect(outcomes.get(id(2))).toEqual({ status: 'sent' });
  });

  it('survives a done callback that throws', async () => {
    const batcher = makeBatcher();
    const outcomes = new Outcomes();
    batcher.add({
      ...record(1, outcomes),
      done: () => {
        throw new Error('user bug');
      },
    });
    batcher.add(record(2, outcomes));
    await timers.runUntil(batcher.flush());
    expect(outcomes.get(id(2))).toEqual({ status: 'sent' });
    expect(warnings.some((w) => w.message.includes('user bug'))).toBe(true);
  });

  it.each([
    [{ project: 'has space' }, 'project'],
    [{ maxBatchItems: 0 }, 'maxBatchItems'],
    [{ maxBatchItems: 20_000 }, 'maxBatchItems'],
    [{ maxBatchBytes: -1 }, 'maxBatchBytes'],
    [{ backoff: { baseMs: 100, maxMs: 10 } }, 'backoff'],
    [{ outbox: {} }, 'outbox'],
  ])('rejects %j naming the option', (bad, field) => {
    let error: unknown;
    try {
      new Batcher({ project: 'p', client, ...(bad as object) } as BatcherOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'WEFT_INVALID_OPTIONS' });
    expect((error as Error).message).toContain(`\`${field}`);
  });
});
