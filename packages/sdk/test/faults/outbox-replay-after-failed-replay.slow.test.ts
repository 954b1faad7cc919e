import { expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { faultMatch } from './fault-table.js';
import { outboxLeft } from './outbox-left.js';
import { startFaultEnv, tempDir } from './run-fault.js';
import { checkServer } from './server-check.js';

// Regression test for what the "500 answers" row of the fault table hit now and then (fixed in
// ab0019c, which schedules another replay while records remain): the outbox was replayed only
// when the circuit closed. When that replay's first batch failed (ingest still answering 500
// while /health answers 200, so the probe closed the circuit), the replay stopped, and nothing
// replayed again while the circuit stayed closed: batches sent afterwards succeeded, flush()
// resolved, and the spilled calls sat in the outbox until the process restarted. Since flush is
// delivery-first, the flush after ingest works again replays them before it resolves.
it('replays the outbox again once ingest works, after a replay attempt failed', async () => {
  expect(faultMatch({ method: 'GET', path: '/health' })).toBe(false);
  const { server, proxy } = await startFaultEnv();
  const client = weft.init({
    project: 'replay-after-failed-replay',
    url: proxy.url,
    outboxDir: await tempDir('weft-faults-replay-'),
    handleExit: false,
  });
  onTestFinished(async () => {
    proxy.passThrough();
    await client.shutdown({ timeoutMs: 2_000 });
  });
  const step = weft.op(function step(i: number) {
    return { id: weft.currentCall()?.id ?? '', i };
  });

  proxy.respond(500);
  const spilledIds = Array.from({ length: 2_000 }, (_, i) => step(i).id);
  // Ingest keeps failing for this flush: at its deadline everything is in the outbox.
  const first = await weft.flush({ timeoutMs: 3_000 });
  expect(first).toMatchObject({ sent: 0, failed: 0, pending: 0, spilled: 2_000 });
  // Nothing is queued now, so the next ingest request is the outbox replay (started when the
  // /health probe closes the circuit); it gets a 500 and stops.
  const injected = proxy.counters.injected;
  await proxy.waitFor((c) => c.injected > injected);
  proxy.passThrough();

  // Ingest works again and new calls go through...
  const laterId = step(2_000).id;
  // ...and the outbox is replayed before the flush resolves.
  expect(await weft.flush()).toMatchObject({ sent: 1, failed: 0, pending: 0, replayed: 2_000 });
  const left = outboxLeft(client);
  const check = await checkServer(server.url, 'replay-after-failed-replay', [...spilledIds, laterId]);
  expect({ outboxLeft: left, lost: check.missing.length }).toEqual({ outboxLeft: 0, lost: 0 });
}, 60_000);
