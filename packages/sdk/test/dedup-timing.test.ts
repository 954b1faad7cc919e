import { describe, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import { startRequestLogProxy } from './eval/fixtures/request-log-proxy.js';
import { FaultProxy, seededText, useFileServer } from './support/index.js';

// Values sent once must not depend on which of two batches in flight the
// server answers first. These tests force the slow path: the batch that
// carries a value is held at a proxy while a later batch that refers to it
// reaches the server (which answers `missingValues`).

const server = useFileServer();

/**
 * Client → request log → fault proxy → server. The fault proxy holds the
 * first batch; `passLater()` lets later batches through while it is held.
 */
async function crossedBatches(project: string, extra: Partial<weft.WeftOptions> = {}) {
  let holding = true;
  const faults = await FaultProxy.start({
    upstream: server.url,
    match: ({ method, path }) => holding && method === 'POST' && path.startsWith('/v1/calls/batch'),
  });
  server.onStop(() => faults.close());
  const log = await startRequestLogProxy(faults.url);
  server.onStop(() => log.close());
  const client = weft.init({ project, url: log.url, outbox: false, handleExit: false, ...extra });
  faults.pause();
  return {
    client,
    faults,
    posted: () => log.requests.filter((r) => r.method === 'POST').reduce((sum, r) => sum + r.bytes, 0),
    /** Later batches pass (the held one stays held until `faults.resume()`); `false`: faults apply again. */
    passLater: (pass = true) => {
      holding = !pass;
    },
    /** Requests the server answered directly, not counting the held one. */
    relayed: (n: number) => faults.waitFor((c) => c.relayed >= n),
  };
}

describe('values sent once, whatever the timing', () => {
  it('a value whose batch reaches the server after a later batch that refers to it is sent once', async () => {
    const { client, faults, posted, passLater, relayed } = await crossedBatches('dedup-crossed');
    const ask = weft.op(function askCrossed(document: string, question: string) {
      void document;
      return question.length;
    });
    const shared = seededText(1, 20_000);
    ask(shared, 'first'); // its batch (the document's value item and the call) is held
    await faults.waitFor((c) => c.held === 1);
    passLater();
    ask(shared, 'second'); // a marker only: the server answers that it lacks the document
    await relayed(1);
    faults.resume();
    expect((await client.flush()).failed).toBe(0);

    // Sent again, the document would have crossed the wire twice.
    expect(posted()).toBeLessThan(1.5 * shared.length);
    const calls = await client.getCalls({ opName: 'askCrossed' }).toArray();
    expect(calls.map((call) => call.inputs.document)).toEqual([shared, shared]);
  });

  it('a value whose batch failed after a later batch was told it is missing is sent again by that record', async () => {
    const { client, faults, passLater, relayed } = await crossedBatches('dedup-crossed-failed', {
      maxAttempts: 1,
    });
    const ask = weft.op(function askLost(document: string, question: string) {
      void document;
      return question.length;
    });
    const shared = seededText(2, 20_000);
    ask(shared, 'first');
    await faults.waitFor((c) => c.held === 1);
    passLater();
    ask(shared, 'second');
    await relayed(1);
    // (Local names differ from the op's parameter names: the test transform renames a parameter that shadows one.)
    // The held batch (the document's only value item) fails: the second call's record sends the document.
    passLater(false);
    faults.failNext(1, { status: 503 });
    faults.resume();
    const flushed = await client.flush();
    expect(flushed.failed).toBe(1); // the first call, lost with its batch

    const calls = await client.getCalls({ opName: 'askLost' }).toArray();
    expect(calls.map((call) => [call.inputs.question, call.inputs.document])).toEqual([['second', shared]]);
  });
});
