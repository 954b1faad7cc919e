import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runChild } from '../support/index.js';
import { startFaultEnv, tempDir } from './run-fault.js';

const childScript = fileURLToPath(new URL('./fixtures/flush-exit-child.ts', import.meta.url));

// Regression test (fixed in b55bfb6). Found by the SDK-kill fault: its first child (exit hooks off) exited with code 13, "unsettled
// top-level await", in the middle of `await weft.flush()` as soon as ingest answered 503. Every
// timer the transport waits on (retry backoff, circuit probe) is unref()'d, and flush() itself
// held nothing that kept the event loop alive, so the process ended while the user's own
// `await` is pending: the code after it never runs and the records are neither sent nor spilled.
// (Before the first batch, the outbox opening and the first connection keep the loop busy long
// enough, so the child first flushes a warm-up batch through the healthy server.)
it('an awaited weft.flush() keeps the process alive until it resolves, with exit hooks off', async () => {
  const { proxy } = await startFaultEnv();
  // The warm-up batch is taken; every later one gets 503.
  void proxy.waitFor((c) => c.relayed >= 1).then(() => proxy.respond(503));
  const child = await runChild(childScript, {
    env: {
      WEFT_URL: proxy.url,
      OUTBOX_DIR: await tempDir('weft-faults-flush-exit-'),
      WARM_UP: '100',
      COUNT: '1000',
    },
  });
  const exit = await child.exited;
  const line = child
    .stdout()
    .split('\n')
    .find((l) => l.startsWith('flushed '));
  expect({
    exit,
    flushed: line === undefined ? undefined : JSON.parse(line.slice('flushed '.length)),
  }).toEqual({
    exit: { code: 0, signal: null },
    flushed: expect.objectContaining({ pending: 0, failed: 0, spilled: 1000 }),
  });
}, 60_000);
