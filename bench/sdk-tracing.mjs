// SDK tracing costs: caller overhead, CPU per call, event-loop lag, throughput.
//
// Build first, then run:
//   cd packages/protocol && npx tsup && cd ../server && npx tsup && cd ../weft && npx tsup && cd ../..
//   node bench/sdk-tracing.mjs
//
// Workload: a traced `agentStep` calling a traced `llmCall` 3 times, with
// nested LLM-like outputs of about 1 KB and 80 KB (same structure, longer
// strings). Compared with the same code untraced and with one msgpackr encode
// of the call's inputs and output.
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { encodeMsgpack } from '@weft/protocol';
import * as weft from '@weft/sdk';
import { createClient, snapshotTape } from '@weft/sdk/testing';
import { writeResultsSection } from './lib/results-file.mjs';

/** Values (containers and leaves) and containers in `value`, as the snapshot visits them. */
function countNodes(value) {
  let nodes = 0;
  let containers = 0;
  const visit = (v) => {
    nodes++;
    if (typeof v === 'object' && v !== null) {
      containers++;
      for (const k of Object.keys(v)) visit(v[k]);
    }
  };
  visit(value);
  return { nodes, containers };
}

const here = fileURLToPath(new URL('.', import.meta.url));
const serverEntry = new URL('../packages/server/dist/index.js', import.meta.url);

/** An LLM-like response: 3 choices × (message + 4 tool calls), strings sized to reach about `bytes`. */
function llmOutput(bytes) {
  const text = (n) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);
  const per = Math.max(8, Math.floor(bytes / 18));
  return {
    id: 'chatcmpl-123',
    model: 'gpt-4o',
    choices: [0, 1, 2].map((i) => ({
      index: i,
      finish_reason: 'stop',
      message: {
        role: 'assistant',
        content: text(per * 2),
        tool_calls: [0, 1, 2, 3].map((k) => ({
          id: `call_${k}`,
          type: 'function',
          function: { name: `tool_${k}`, arguments: text(per) },
        })),
      },
    })),
    usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
  };
}

const messages = [
  { role: 'system', content: 'You are a helpful agent.' },
  { role: 'user', content: 'Plan the trip and book the hotel.' },
];

function makeOps(output, traced) {
  const wrap = traced ? weft.op : (fn) => fn;
  const llmCallSync = wrap(function llmCallSync(_msgs, _options) {
    return output;
  });
  const llmCall = wrap(async function llmCall(_msgs, _options) {
    await sleep(1); // the model's latency
    return output;
  });
  const agentStep = wrap(async function agentStep(task) {
    const history = [...messages, { role: 'user', content: task }];
    for (let i = 0; i < 3; i++) {
      const reply = await llmCall(history, { temperature: 0 });
      history.push(reply.choices[0].message);
    }
    return history.at(-1);
  });
  return { llmCallSync, llmCall, agentStep };
}

const nullSink = () => ({
  add(r) {
    setImmediate(() => r.done({ status: 'sent' }));
  },
  flush: async () => {},
});

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Synchronous caller overhead: a tight loop of sync calls, traced minus untraced, per call (µs). */
async function callerOverhead(output) {
  const client = createClient({ project: 'bench', outbox: false, handleExit: false }, nullSink);
  const traced = makeOps(output, true).llmCallSync;
  const plain = makeOps(output, false).llmCallSync;
  const N = 2_000;
  const loop = (fn) => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) fn(messages, { temperature: 0 });
    return ((performance.now() - t0) * 1000) / N;
  };
  const tracedUs = [];
  const plainUs = [];
  const snapUs = [];
  for (let round = 0; round < 33; round++) {
    plainUs.push(loop(plain));
    tracedUs.push(loop(traced));
    await client.flush();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      snapshotTape({ msgs: messages, options: { temperature: 0 } });
      snapshotTape(output);
    }
    snapUs.push(((performance.now() - t0) * 1000) / N);
  }
  await client.shutdown();
  const overhead = median(tracedUs.slice(3)) - median(plainUs.slice(3));
  const snap = median(snapUs.slice(3));
  const counted = countNodes({ inputs: { msgs: messages, options: { temperature: 0 } }, output });
  return {
    overheadUs: round2(overhead),
    snapshotUs: round2(snap),
    overheadMinusSnapshotUs: round2(overhead - snap),
    snapshotNodes: counted.nodes,
    snapshotContainers: counted.containers,
  };
}

/** Main-thread CPU per traced call (everything: caller, pool, encode; null sink) vs one msgpackr encode of inputs + output. */
async function cpuPerCall(output) {
  const client = createClient({ project: 'bench', outbox: false, handleExit: false }, nullSink);
  const { llmCallSync } = makeOps(output, true);
  const N = 2_000;
  const plainOp = makeOps(output, false).llmCallSync;
  const runs = [];
  const plainRuns = [];
  const encodeRuns = [];
  // Rounds interleave traced, untraced and encode, so the machine's load (shared, varying) weighs on all three alike.
  for (let round = 0; round < 22; round++) {
    let c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) llmCallSync(messages, { temperature: 0 });
    await client.flush();
    let c = process.cpuUsage(c0);
    runs.push((c.user + c.system) / N);
    c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) plainOp(messages, { temperature: 0 });
    c = process.cpuUsage(c0);
    plainRuns.push((c.user + c.system) / N);
    c0 = process.cpuUsage();
    for (let i = 0; i < N; i++)
      encodeMsgpack({ inputs: { msgs: messages, options: { temperature: 0 } }, output });
    c = process.cpuUsage(c0);
    encodeRuns.push((c.user + c.system) / N);
  }
  await client.shutdown();
  const traced = median(runs.slice(2)) - median(plainRuns.slice(2));
  const encode = median(encodeRuns.slice(2));
  return { tracedCpuUs: round2(traced), encodeCpuUs: round2(encode), ratio: round2(traced / encode) };
}

/** A 2,000-step burst, 64 in flight, to a real server: loop lag, throughput, calls lost. */
async function burst(output, url, traced, project, STEPS, outboxDir) {
  const client = traced ? weft.init({ project, url, outboxDir, handleExit: false }) : undefined;
  const { agentStep } = makeOps(output, traced);
  const IN_FLIGHT = 64;
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < STEPS) await agentStep(`task ${next++}`);
    }),
  );
  const tSteps = performance.now() - t0;
  const flushed = client ? await client.flush() : undefined;
  const tAll = performance.now() - t0;
  h.disable();
  const lagMs = (q) => round2(Math.max(0, (q - 1e6) / 1e6));
  const result = {
    traced,
    steps: STEPS,
    calls: traced ? STEPS * 4 : 0,
    stepsMs: Math.round(tSteps),
    totalMs: Math.round(tAll),
    callsPerSec: traced ? Math.round((STEPS * 4) / (tAll / 1000)) : undefined,
    lag: { p50: lagMs(h.percentile(50)), p99: lagMs(h.percentile(99)), max: lagMs(h.max) },
  };
  if (client) {
    // Records spilled to the outbox (the server could not keep up) are replayed; wait for that before counting.
    const replayDeadline = performance.now() + 120_000;
    while (
      (client.diagnostics().outbox?.records ?? 0) + (client.diagnostics().outbox?.pendingRecords ?? 0) > 0 &&
      performance.now() < replayDeadline
    )
      await sleep(100);
    result.replayedMs = Math.round(performance.now() - t0 - tAll);
    let stored = 0;
    for await (const page of client.getCalls({ pageSize: 1_000 }).pages()) stored += page.length;
    result.flushed = flushed;
    result.stored = stored;
    result.lost = STEPS * 4 - stored;
    result.diagnostics = client.diagnostics();
    await client.shutdown();
  }
  return result;
}

const round2 = (x) => Math.round(x * 100) / 100;

const BURSTS = 5;
const WARM_UP_STEPS = 100;

/** The run whose loop-lag p99 is the median of the runs. */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.lag.p99 - b.lag.p99)[Math.floor(runs.length / 2)];
}

/** `lo–hi` of a field over runs. */
function range(runs, pick) {
  const xs = runs.map(pick);
  return `${Math.min(...xs)}–${Math.max(...xs)}`;
}

async function startServerProcess() {
  const dir = await mkdtemp(join(os.tmpdir(), 'weft-bench-sdk-'));
  const child = fork(fileURLToPath(import.meta.url), ['--server', join(dir, 'weft.db')], {
    stdio: 'inherit',
  });
  const { url } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send('close');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  const loadBefore = os.loadavg()[0];
  // Steps per burst: 2,000 (8,000 calls) for 1 KB; 500 (2,000 calls) for 80 KB, whose records of up to ~400 KB
  // (inputs carry the growing history) are more than the server ingests during the burst on this machine, so some
  // wait in the outbox and are replayed before counting.
  const sizes = [
    ['1 KB', llmOutput(1_000), 2_000],
    ['80 KB', llmOutput(80_000), 500],
  ];
  const outboxRoot = await mkdtemp(join(os.tmpdir(), 'weft-bench-outbox-'));
  const results = [];
  /** A traced burst against its own fresh server (an empty database), so no run inherits another's data. */
  const tracedBurst = async (output, steps, project) => {
    const server = await startServerProcess();
    try {
      return await burst(output, server.url, true, project, steps, join(outboxRoot, project));
    } finally {
      await server.close();
    }
  };
  try {
    for (const [label, output, steps] of sizes) {
      const bytes = encodeMsgpack(output).byteLength;
      const overhead = await callerOverhead(output);
      const cpu = await cpuPerCall(output);
      const name = (run) => `bench-${label.replace(' ', '')}-${Date.now()}-${run}`;
      // Warm-up (not reported): one short burst each way, so the measured runs do not include the JIT compiling the
      // async paths for the first time.
      await burst(output, undefined, false, undefined, WARM_UP_STEPS);
      await tracedBurst(output, WARM_UP_STEPS, name('warm-up'));
      // Bursts are short and the machine is shared: run each BURSTS times, interleaved, and report the run with
      // the median p99 (every run is in the JSON, and the table gives the range).
      const untracedRuns = [];
      const tracedRuns = [];
      for (let run = 0; run < BURSTS; run++) {
        untracedRuns.push(await burst(output, undefined, false, undefined, steps));
        tracedRuns.push(await tracedBurst(output, steps, name(run)));
      }
      const untraced = medianRun(untracedRuns);
      const traced = {
        ...medianRun(tracedRuns),
        lostAllRuns: tracedRuns.reduce((sum, r) => sum + r.lost, 0),
      };
      results.push({ label, outputBytes: bytes, overhead, cpu, untraced, traced, untracedRuns, tracedRuns });
      console.log(JSON.stringify(results.at(-1)));
    }
  } finally {
    await rm(outboxRoot, { recursive: true, force: true });
  }
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: [round2(loadBefore), round2(os.loadavg()[0])],
  };
  await mkdir(join(here, 'out'), { recursive: true });
  await writeFile(
    join(here, 'out', 'sdk-tracing.json'),
    `${JSON.stringify({ ...meta, results }, null, 2)}\n`,
  );
  await writeSection(results, meta);
}

async function writeSection(results, meta) {
  const n = (x) => (x === undefined ? '–' : x.toLocaleString('en-US'));
  const section = [
    '## SDK',
    '',
    `\`node bench/sdk-tracing.mjs\` — ${meta.date}, Node ${meta.node}, ${meta.cpus} CPUs, 1-minute load average ${meta.loadAverage[0]} before / ${meta.loadAverage[1]} after (other work on the machine).`,
    'A traced `agentStep` calls a traced `llmCall` 3 times (1 ms simulated model latency); outputs are LLM-like responses',
    '(3 choices × message + 4 tool calls, usage) of ~1 KB and ~80 KB with the same structure. Server: the built server in a',
    'child process (SQLite). Medians over repeated rounds after warm-up.',
    '',
    '**Caller overhead** (synchronous, per call: traced minus untraced sync `llmCall`; the structural snapshot of inputs +',
    'output timed alone). Target: < 5 µs plus the snapshot, independent of string bytes.',
    '',
    '| Output | msgpack bytes | Snapshot nodes (containers) | Overhead µs | Snapshot µs | Overhead − snapshot µs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.label} | ${n(r.outputBytes)} | ${r.overhead.snapshotNodes} (${r.overhead.snapshotContainers}) | ${r.overhead.overheadUs} | ${r.overhead.snapshotUs} | ${r.overhead.overheadMinusSnapshotUs} |`,
    ),
    '',
    '**Main-thread CPU per traced call** (caller + pool: walk, redaction, encode; records to a null sink) against one',
    'msgpackr encode of the same inputs + output, rounds interleaved in one process. Target: ≤ 2×.',
    '',
    '| Output | Traced CPU µs/call | One encode µs | Ratio |',
    '| --- | ---: | ---: | ---: |',
    ...results.map((r) => `| ${r.label} | ${r.cpu.tracedCpuUs} | ${r.cpu.encodeCpuUs} | ${r.cpu.ratio}× |`),
    '',
    '**Burst**: `agentStep`s with 64 in flight (4 traced calls each) to the real server, outbox enabled; loop lag from',
    '`monitorEventLoopDelay` (1 ms resolution) over the burst and the final flush. "Until flushed" is when `flush()`',
    'resolved (every record acknowledged or durably in the outbox); stored/lost are counted on the server after any',
    'spilled records were replayed. Target: p99 < 10 ms, 0 lost.',
    '',
    `Each burst ran ${BURSTS} times (untraced and traced interleaved) after one unreported ${WARM_UP_STEPS}-step warm-up burst`,
    'each way; every traced burst had its own freshly started server (empty database). The row is the run with the',
    'median p99, and "p99, all runs" gives the range. Lost counts every traced run.',
    '',
    '| Output | Mode | Steps | Steps ms | Until flushed ms | Calls/s end-to-end | Lag p50 ms | p99 ms | p99, all runs | max ms | Spilled | Stored | Lost (all runs) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.flatMap((r) => [
      `| ${r.label} | untraced | ${n(r.untraced.steps)} | ${n(r.untraced.stepsMs)} | – | – | ${r.untraced.lag.p50} | ${r.untraced.lag.p99} | ${range(r.untracedRuns, (x) => x.lag.p99)} | ${r.untraced.lag.max} | – | – | – |`,
      `| ${r.label} | traced | ${n(r.traced.steps)} | ${n(r.traced.stepsMs)} | ${n(r.traced.totalMs)} | ${n(r.traced.callsPerSec)} | ${r.traced.lag.p50} | ${r.traced.lag.p99} | ${range(r.tracedRuns, (x) => x.lag.p99)} | ${r.traced.lag.max} | ${n(r.traced.flushed.spilled)} | ${n(r.traced.stored)} | ${n(r.traced.lostAllRuns)} |`,
    ]),
    '',
    'Raw figures: `bench/out/sdk-tracing.json`. Client and server share a 2-core machine with other work running.',
    '',
    '**How the work is done.** The caller takes the structural snapshot as one flat token array (a *tape*: containers as',
    'tag + count, leaves and identity-kept values as themselves; strings are referenced, never copied), so a waiting call',
    'holds one array instead of dozens of small objects the minor GCs would copy. The pool walks the record once with',
    "`encodeIfSafe`, which checks the Sanitizer's rules and writes msgpack in the same pass into reused arenas, and falls",
    'back to the Sanitizer + msgpackr only when a value needs changing. That is why traced CPU per call lands near one',
    'msgpackr encode: the snapshot and the fused check-and-encode together cost about what msgpackr alone does on the same',
    'value. Batch bodies and outbox frames are assembled into reused memory, spills are bounded per turn, and batches',
    'are 1 MiB, so no single step of the transport holds the loop for long.',
    '',
    '**What the lag figures are made of.** The traced bursts are CPU-bound (compare "Steps ms" with the untraced row), so',
    'the event loop is always busy and p99 is set by the longest single pauses: minor and major GCs (3–11 ms on this',
    "VM with a 20 MB heap), a timers phase that runs all 64 agents' continuations at once after a long turn, and the",
    'process being descheduled while the co-located server ingests on the other core. The 80 KB burst moves ~175 MB of',
    'record bytes and spills about half of them to the outbox (the server cannot ingest that fast), all on a 2-core',
    'machine shared with the server. Run-to-run spread on this machine is large (see "p99, all runs"): compare within',
    "one run of the script, not across runs. Caller overhead beyond the snapshot includes the minor GCs that the loop's",
    '2,000 records-in-waiting cause; measured alone, the constant work with a small inputs snapshot is about 2 µs.',
  ].join('\n');
  await writeResultsSection('SDK', section);
}

if (process.argv[2] === '--server') {
  const { startServer } = await import(serverEntry.href);
  const server = await startServer({ host: '127.0.0.1', port: 0, dbPath: process.argv[3], uiDir: false });
  process.on('message', async (m) => {
    if (m === 'close') {
      await server.close();
      process.exit(0);
    }
  });
  process.send({ url: server.url });
} else {
  await main();
}
