/**
 * Child process for the crash test: appends batches of `record(n)` to the
 * outbox in `argv[2]`, numbering from `argv[3]`, with fsync policy `argv[4]`, forever, with a few appends
 * in flight, and prints `durable <n>` each time the records below n are
 * durable (and `warning <kind>` for each warning). The parent kills it with SIGKILL at a moment of its choosing.
 */
import { Outbox } from '../../../src/outbox/outbox.js';
import type { OutboxFsyncPolicy } from '../../../src/outbox/outbox-options.js';
import { records } from './records.js';

const BATCH_RECORDS = 50;
const PAD_BYTES = 32 * 1024;
const IN_FLIGHT = 4;

const [dir, firstArg, fsync] = process.argv.slice(2);
const first = Number(firstArg);
const outbox = await Outbox.open({
  dir: dir!,
  fsync: fsync as OutboxFsyncPolicy,
  segmentBytes: 4 * 1024 ** 2,
  onWarning: (_message, details) => void process.stdout.write(`warning ${String(details.kind)}\n`),
});
const inFlight: Promise<void>[] = [];
for (let next = first; ; next += BATCH_RECORDS) {
  const end = next + BATCH_RECORDS;
  // Appends settle in order, so each report covers every record before `end`.
  inFlight.push(
    outbox.append(records(next, end, PAD_BYTES)).then(() => void process.stdout.write(`durable ${end}\n`)),
  );
  if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
}
