// One SDK process of the backpressure soak: makes CALLS calls through the
// built @weft/sdk (weft.init + weft.op) as fast as it can, each answering a
// ~1 KB output that names it (`<SENDER>:<i>`), then flushes, waits for its
// outbox to be replayed and prints what its transport did as one JSON line:
// {"made","sent","spilled","failed","retries","overloaded","maxRetryDelayMs","outboxLeft"}.
// Env: WEFT_URL, WEFT_PROJECT, SENDER, CALLS, OUTBOX_DIR.
import { subscribe } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import * as weft from '@weft/sdk';

const sender = process.env.SENDER ?? 's';
const calls = Number(process.env.CALLS ?? '1000');
const client = weft.init({
  project: process.env.WEFT_PROJECT ?? 'soak',
  url: process.env.WEFT_URL,
  outboxDir: process.env.OUTBOX_DIR,
  handleExit: false,
});

let retries = 0;
let overloaded = 0;
let maxRetryDelayMs = 0;
subscribe('weft:transport', (event) => {
  if (event.type !== 'retry') return;
  retries++;
  maxRetryDelayMs = Math.max(maxRetryDelayMs, event.delayMs);
  if (event.reason.includes('busy')) overloaded++;
});

const filler = 'x'.repeat(1_000);
const work = weft.op(function work(i) {
  return { key: `${sender}:${i}`, text: filler };
});
for (let i = 0; i < calls; i++) {
  work(i);
  // Let the transport run now and then; otherwise as fast as calls can be made.
  if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
}
await weft.flush();
// flush() resolves once every call is sent or durably in the outbox; the outbox is then replayed.
let outboxLeft = 0;
for (const deadline = Date.now() + 600_000; Date.now() < deadline; await sleep(100)) {
  const outbox = client.diagnostics().outbox;
  outboxLeft = outbox ? outbox.records + outbox.pendingRecords : 0;
  if (outboxLeft === 0) break;
}
const { delivery } = client.diagnostics();
await weft.shutdown({ timeoutMs: 10_000 });
process.stdout.write(
  `${JSON.stringify({ made: calls, ...delivery, retries, overloaded, maxRetryDelayMs, outboxLeft })}\n`,
);
