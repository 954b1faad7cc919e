import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { encodeMsgpack } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { ManualTimers } from '../../test/support/transport/manual-timers.js';
import { type ScriptedResponse, ScriptedServer } from '../../test/support/transport/scripted-server.js';
import { ApiClient } from './api-client.js';
import { Batcher, type CallRecord } from './batcher.js';
import { TRANSPORT_CHANNEL, type TransportEvent } from './transport-events.js';

const id = (n: number) => `01890000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

function record(n: number): CallRecord {
  const item = {
    type: 'complete',
    id: id(n),
    traceId: id(n),
    parentId: null,
    opName: 'op',
    startedAt: n,
    endedAt: n + 1,
    inputs: {},
  };
  return { callId: id(n), bytes: encodeMsgpack(item), done: () => {} };
}

/** The next event on the transport channel that `matches`; call it before causing the event. */
function nextTransportEvent(matches: (event: TransportEvent) => boolean): Promise<TransportEvent> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      if (!matches(message as TransportEvent)) return;
      unsubscribe(TRANSPORT_CHANNEL, listener);
      resolve(message as TransportEvent);
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
let batcher: Batcher | undefined;

beforeEach(async () => {
  server = await ScriptedServer.start();
  client = new ApiClient({ url: server.url });
  timers = new ManualTimers();
});
afterEach(async () => {
  server.script = () => ({ status: 200, body: {} });
  if (batcher) await timers.runUntil(batcher.close());
  batcher = undefined;
  await client.close();
  await server.close();
});

/** A batcher of one record per batch, two batches out at once, on the manual timers. */
function oneRecordBatches(): Batcher {
  return new Batcher({
    project: 'proj',
    client,
    timers,
    random: () => 0,
    maxBatchItems: 1,
    maxConcurrentBatches: 2,
  });
}

describe('Batcher under an overloaded server', () => {
  it('regression: the slot a refused batch freed went at once to the next batch; now one batch is out until the server takes one', async () => {
    let answerHeld: (response: ScriptedResponse) => void = () => {};
    const held = new Promise<ScriptedResponse>((resolve) => (answerHeld = resolve));
    server.script = (_request, index) =>
      index === 0
        ? { status: 503, headers: { 'retry-after': '1' } }
        : index === 1
          ? held
          : { status: 200, body: {} };
    batcher = oneRecordBatches();
    for (let n = 0; n < 3; n++) batcher.add(record(n));
    const retry = nextTransportEvent((event) => event.type === 'retry');
    const flushed = batcher.flush();
    await retry;
    await new Promise<void>((resolve) => setImmediate(resolve)); // the pump the freed slot scheduled
    // The refused batch waits its Retry-After; the held one is out; the third waits for a slot.
    expect(batcher.stats).toMatchObject({ inFlightBatches: 2, queuedRecords: 1 });
    answerHeld({ status: 200, body: {} });
    await server.waitForRequests(3);
    timers.advance(1_000);
    await flushed;
    expect(server.itemsAccepted).toBe(3);
  });

  it('regression: a refused batch freed its slot while waiting, so in a long overload every queued batch went out and was refused; now it keeps the slot and nothing more goes out until the server takes one', async () => {
    let overloaded = true;
    server.script = () =>
      overloaded ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200, body: {} };
    batcher = oneRecordBatches();
    for (let n = 0; n < 6; n++) batcher.add(record(n));
    const retries = [1, 2].map((count) => {
      let seen = 0;
      return nextTransportEvent((event) => event.type === 'retry' && ++seen === count);
    });
    const flushed = batcher.flush();
    await Promise.all(retries);
    await new Promise<void>((resolve) => setImmediate(resolve)); // any pump a freed slot scheduled
    // The two batches out when the server refused them wait with their slots; the other four stay queued.
    expect(server.requests).toHaveLength(2);
    expect(batcher.stats).toMatchObject({ inFlightBatches: 2, queuedRecords: 4 });
    overloaded = false;
    timers.advance(1_000);
    await flushed;
    expect(server.itemsAccepted).toBe(6);
    expect(server.requests).toHaveLength(8);
  });
});
