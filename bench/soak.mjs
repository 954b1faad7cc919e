#!/usr/bin/env node
// Soak: N calls through the real SDK (the BUILT `weft` package: weft.init +
// weft.op + weft.flush) at a steady rate, each returning a 10 KB output, into
// the built server in a child process with SQLite on disk. Halfway through,
// the server is killed (SIGKILL by default) and restarted on the same port and
// database; the SDK rides it out (retries, circuit, outbox, replay).
//
// RSS and heap are sampled every second. At the end: flush, wait for the
// outbox to drain, stop the server, and count the calls in its database by id.
// Reports first vs last minute of memory and the number of calls lost.
//
//   cd /work/main && npx turbo run build
//   node --expose-gc bench/soak.mjs                       # 1,000,000 calls at 1,000/s
//   node --expose-gc bench/soak.mjs --calls 300000 --rate 500 [--signal SIGTERM] [--down-ms 3000]
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import * as weft from '@weft/sdk';
import { writeResultsSection } from './lib/results-file.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const serverEntry = new URL('../packages/server/dist/index.js', import.meta.url);
/** A queue this short (records, minute mean) means the server kept up. */
const SHORT_QUEUE = 300;
/** The batcher's default 64 MiB bound in 10 KB records (about 10.3 KB each once encoded). */
const QUEUE_BOUND_RECORDS = Math.floor((64 * 2 ** 20) / 10_300);

const { values: args } = parseArgs({
  options: {
    /** Child mode: run the built server with this SQLite file. */
    serve: { type: 'string' },
    port: { type: 'string', default: '0' },
    calls: { type: 'string', default: '1000000' },
    /** Calls per second. */
    rate: { type: 'string', default: '1000' },
    'output-bytes': { type: 'string', default: '10240' },
    /** How the server is stopped halfway: SIGKILL (crash) or SIGTERM (graceful). */
    signal: { type: 'string', default: 'SIGKILL' },
    /** How long the server stays down before it is restarted. */
    'down-ms': { type: 'string', default: '3000' },
    /** Do not write bench/RESULTS.md and bench/out/soak.json (for trial runs). */
    'no-write': { type: 'boolean', default: false },
    /** Only rewrite the "Soak" section of bench/RESULTS.md from bench/out/soak.json. */
    'report-only': { type: 'boolean', default: false },
  },
});

if (args.serve) await serve(args.serve, Number(args.port));
else if (args['report-only'])
  await writeSection(JSON.parse(await readFile(join(here, 'out/soak.json'), 'utf8')));
else await main();

/** Child mode: the built server on `port` until killed (SIGTERM closes it gracefully). */
async function serve(dbPath, port) {
  const { startServer } = await import(serverEntry.href);
  const server = await startServer({ host: '127.0.0.1', port, dbPath, uiDir: false });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.send({ url: server.url, port: server.port });
}

/** Starts the server child on `port` (0 = any) and resolves with it once it listens. */
async function startServerChild(dbPath, port) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', dbPath, '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server child exited with ${code} before listening`)));
  });
  return { child, exited, url: ready.url, port: ready.port };
}

async function main() {
  const calls = Number(args.calls);
  const rate = Number(args.rate);
  const outputBytes = Number(args['output-bytes']);
  const downMs = Number(args['down-ms']);
  const signal = args.signal;
  if (!(calls > 0 && rate > 0 && outputBytes >= 0 && downMs >= 0))
    throw new Error('--calls, --rate, --output-bytes, --down-ms must be positive numbers');

  const dir = await mkdtemp(join(tmpdir(), 'weft-soak-'));
  const dbPath = join(dir, 'weft.db');
  const outboxDir = join(dir, 'outbox');
  const project = 'soak';
  const loadBefore = loadavg()[0];
  let server = await startServerChild(dbPath, 0);
  const port = server.port;
  const client = weft.init({ project, url: server.url, outboxDir, handleExit: false });

  // A 10 KB output, different per call (its index prefixes a shared block), as an LLM reply would be.
  const block = 'x'.repeat(outputBytes);
  const reply = weft.op(function reply(i) {
    return { i, text: `${i} ${block}`.slice(0, outputBytes) };
  });

  /** One sample per second: memory, and where the pipeline stands. */
  const samples = [];
  const t0 = performance.now();
  let made = 0;
  let userErrors = 0;
  const sample = () => {
    const m = process.memoryUsage();
    const d = client.diagnostics();
    samples.push({
      t: Math.round((performance.now() - t0) / 1000),
      made,
      rssMB: +(m.rss / 2 ** 20).toFixed(1),
      heapUsedMB: +(m.heapUsed / 2 ** 20).toFixed(1),
      heapTotalMB: +(m.heapTotal / 2 ** 20).toFixed(1),
      externalMB: +(m.external / 2 ** 20).toFixed(1),
      queueRecords: d.queue.records,
      inFlightCalls: d.inFlightCalls,
      pendingUnits: d.pendingUnits,
      outboxRecords: d.outbox?.records ?? 0,
      sent: d.delivery.sent,
      spilled: d.delivery.spilled,
      failed: d.delivery.failed,
      loopLagP99Ms: d.loopLag.p99 ?? null,
    });
  };
  const sampler = setInterval(sample, 1_000);

  // Steady rate: every 10 ms, make the calls that are due by now (no catching up in bursts beyond a tick).
  let restart;
  let restartInfo;
  const half = Math.floor(calls / 2);
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(calls, Math.floor(((performance.now() - t0) / 1000) * rate));
      for (; made < due; made++) {
        try {
          const out = reply(made);
          if (out.i !== made) userErrors++;
        } catch {
          userErrors++;
        }
        if (made === half && restart === undefined) {
          restart = (async () => {
            const killedAt = performance.now();
            server.child.kill(signal);
            const exit = await server.exited;
            await sleep(downMs);
            server = await startServerChild(dbPath, port);
            restartInfo = {
              signal,
              exit,
              atCall: half,
              atS: +((killedAt - t0) / 1000).toFixed(1),
              downMs: Math.round(performance.now() - killedAt),
            };
          })();
        }
      }
      if (made >= calls) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  const madeS = (performance.now() - t0) / 1000;
  await restart;
  const flushStarted = performance.now();
  const flushed = await weft.flush();
  const flushMs = performance.now() - flushStarted;
  // flush() resolves once every call is sent or durably in the outbox; the outbox is then
  // replayed in the background. There is no event for "replay done": read the gauge (no I/O).
  const drainStarted = performance.now();
  let outboxLeft = 0;
  for (const deadline = Date.now() + 120_000; ; await sleep(100)) {
    const outbox = client.diagnostics().outbox;
    outboxLeft = outbox ? outbox.records + outbox.pendingRecords : 0;
    if (outboxLeft === 0 || Date.now() > deadline) break;
  }
  const drainMs = performance.now() - drainStarted;
  clearInterval(sampler);
  sample();
  const diagnostics = client.diagnostics();
  await weft.shutdown({ timeoutMs: 5_000 });

  // Stop the server gracefully (checkpoint), then count by id in its database.
  server.child.kill('SIGTERM');
  await server.exited;
  const db = new Database(dbPath, { readonly: true });
  const stored = db
    .prepare('SELECT count(*) AS rows, count(DISTINCT id) AS ids FROM calls WHERE project = ?')
    .get(project);
  const complete = db
    .prepare('SELECT count(*) FROM calls WHERE project = ? AND has_start = 1 AND has_end = 1')
    .pluck()
    .get(project);
  db.close();
  await rm(dir, { recursive: true, force: true });

  const window = Math.min(60, Math.max(1, Math.floor(samples.length / 5)));
  const mean = (list, key) => +(list.reduce((s, x) => s + x[key], 0) / list.length).toFixed(1);
  const max = (list, key) => Math.max(...list.map((x) => x[key]));
  // The first minute after warm-up (the first 10 s: JIT, pools, SQLite cache) vs the last minute of calls.
  const callSamples = samples.filter((s) => s.made < calls);
  const warm = callSamples.filter((s) => s.t > 10);
  const first = warm.slice(0, window);
  const last = callSamples.slice(-window);
  const summary = (list) => ({
    fromS: list[0]?.t,
    toS: list.at(-1)?.t,
    rssMB: mean(list, 'rssMB'),
    rssMaxMB: max(list, 'rssMB'),
    heapUsedMB: mean(list, 'heapUsedMB'),
    heapUsedMaxMB: max(list, 'heapUsedMB'),
  });
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    load1: { before: +loadBefore.toFixed(1), after: +loadavg()[0].toFixed(1) },
    calls,
    rate,
    outputBytes,
    achievedRate: Math.round(calls / madeS),
    madeS: +madeS.toFixed(1),
    restart: restartInfo,
    flush: { ...flushed, ms: Math.round(flushMs) },
    drain: { ms: Math.round(drainMs), outboxLeft },
    delivery: diagnostics.delivery,
    userErrors,
    stored: { rows: stored.rows, distinctIds: stored.ids, complete },
    lost: calls - stored.ids,
    duplicates: stored.rows - stored.ids,
    memory: { windowS: window, first: summary(first), last: summary(last) },
    samples,
  };
  const { samples: _, ...brief } = result;
  console.log(JSON.stringify(brief, null, 2));
  if (!args['no-write']) {
    await mkdir(join(here, 'out'), { recursive: true });
    await writeFile(join(here, 'out/soak.json'), `${JSON.stringify(result, null, 1)}\n`);
    await writeSection(result);
  }
  if (result.lost !== 0 || userErrors !== 0) process.exitCode = 1;
}

/**
 * A paragraph reading the memory figures. Memory follows how many records
 * the SDK holds, which depends on whether the server keeps up with the offered
 * rate; so besides first vs last minute it compares the first and last minutes
 * in which the batcher queue stayed short (like for like).
 */
function readingOf(r) {
  const n = (x) => x.toLocaleString('en-US');
  const { first, last } = r.memory;
  const peak = r.samples.reduce((a, b) => (b.rssMB > a.rssMB ? b : a));
  const minutes = perMinute(r.samples).filter((m) => m.made < r.calls || m.minute > 1);
  const short = minutes.filter((m) => m.queueMean < SHORT_QUEUE && m.outboxMax === 0 && m.minute > 1);
  const lines = [
    `Reading it: heapUsed mean ${first.heapUsedMB} MB in the first minute, ${last.heapUsedMB} MB in the last; RSS ${first.rssMB} → ${last.rssMB} MB, peak ${peak.rssMB} MB at ${peak.t} s.`,
  ];
  const backlog = minutes.filter((m) => m.queueMax > 0.8 * QUEUE_BOUND_RECORDS);
  if (backlog.length > 0) {
    lines.push(
      `In minute(s) ${backlog.map((m) => m.minute).join(', ')} the server fell behind the offered rate on this shared machine: the batcher queue reached its`,
      `64 MiB \`maxQueueBytes\` bound (about ${n(QUEUE_BOUND_RECORDS)} records of 10 KB) and the excess went to the outbox, so the SDK held more`,
      'records in memory then (compare the queue and memory columns).',
    );
  }
  if (short.length >= 2) {
    const a = short[0];
    const b = short.at(-1);
    lines.push(
      `Like for like, minutes with a short queue (mean under ${SHORT_QUEUE} records, nothing in the outbox): minute ${a.minute} RSS ${a.rssMB} MB / heapUsed ${a.heapUsedMB} MB,`,
      `minute ${b.minute} RSS ${b.rssMB} MB / heapUsed ${b.heapUsedMB} MB (${n(b.made - a.made)} calls later).`,
    );
  }
  return lines.join('\n');
}

/** Samples grouped by minute of the run. */
function perMinute(samples) {
  const minutes = [];
  for (const x of samples) {
    const i = Math.floor(Math.max(0, x.t - 1) / 60);
    minutes[i] ??= [];
    minutes[i].push(x);
  }
  const mean = (list, key) => +(list.reduce((s, x) => s + x[key], 0) / list.length).toFixed(1);
  const max = (list, key) => Math.max(...list.map((x) => x[key]));
  return minutes.filter(Boolean).map((list, i) => ({
    minute: i + 1,
    made: list.at(-1).made,
    rssMB: mean(list, 'rssMB'),
    rssMaxMB: max(list, 'rssMB'),
    heapUsedMB: mean(list, 'heapUsedMB'),
    externalMB: mean(list, 'externalMB'),
    queueMean: Math.round(mean(list, 'queueRecords')),
    queueMax: max(list, 'queueRecords'),
    outboxMax: max(list, 'outboxRecords'),
  }));
}

/** Replaces (or appends) the "## Soak" section of bench/RESULTS.md; other benches own the rest. */
async function writeSection(r) {
  const n = (x) => x.toLocaleString('en-US');
  const { first, last } = r.memory;
  const section = [
    '## Soak',
    '',
    `\`node --expose-gc bench/soak.mjs --calls ${r.calls} --rate ${r.rate}\` — ${r.date}, Node ${r.node}, 2 CPUs, 1-minute load average ${r.load1.before} before / ${r.load1.after} after (other work on the machine).`,
    `${n(r.calls)} calls of one op through the built SDK (\`weft.init\` + \`weft.op\` + \`weft.flush\`, default pool/batch settings, outbox on),`,
    `each returning a ${n(r.outputBytes)}-byte output, at a steady ${n(r.rate)} calls/s (achieved ${n(r.achievedRate)}/s over ${r.madeS} s), into the built server in a child`,
    `process (SQLite file). At call ${n(r.restart.atCall)} (${r.restart.atS} s) the server was stopped with ${r.restart.signal} and restarted on the same port and database ${n(r.restart.downMs)} ms later.`,
    'RSS and heap of the SDK process were sampled every second; the database was counted by id after a graceful server stop.',
    '',
    '| | Calls | On server (distinct ids) | Lost | Duplicate rows | User errors | Sent / spilled / failed (records) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    `| result | ${n(r.calls)} | ${n(r.stored.distinctIds)} | ${n(r.lost)} | ${n(r.duplicates)} | ${r.userErrors} | ${n(r.delivery.sent)} / ${n(r.delivery.spilled)} / ${n(r.delivery.failed)} |`,
    '',
    `| Memory (mean over ${r.memory.windowS} s) | Window | RSS MB | RSS max MB | heapUsed MB | heapUsed max MB |`,
    '| --- | --- | ---: | ---: | ---: | ---: |',
    `| first (after 10 s warm-up) | ${first.fromS}–${first.toS} s | ${first.rssMB} | ${first.rssMaxMB} | ${first.heapUsedMB} | ${first.heapUsedMaxMB} |`,
    `| last | ${last.fromS}–${last.toS} s | ${last.rssMB} | ${last.rssMaxMB} | ${last.heapUsedMB} | ${last.heapUsedMaxMB} |`,
    '',
    'Per minute of the run (means of the 1 s samples; "queue" is the batcher\'s in-memory records, "outbox" the records on disk not yet acknowledged):',
    '',
    '| Minute | Calls made | RSS MB | RSS max MB | heapUsed MB | external MB | queue (mean / max) | outbox (max) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...perMinute(r.samples).map(
      (m) =>
        `| ${m.minute} | ${n(m.made)} | ${m.rssMB} | ${m.rssMaxMB} | ${m.heapUsedMB} | ${m.externalMB} | ${n(m.queueMean)} / ${n(m.queueMax)} | ${n(m.outboxMax)} |`,
    ),
    '',
    readingOf(r),
    '',
    `After the last call: \`flush()\` took ${n(r.flush.ms)} ms (${n(r.flush.sent)} sent, ${n(r.flush.spilled)} spilled, ${n(r.flush.failed)} failed in its epoch), and the outbox drained ${n(r.drain.ms)} ms later (${n(r.drain.outboxLeft)} records left).`,
    'Per-second samples (RSS, heap, queue, outbox, delivery counters, loop lag p99): `bench/out/soak.json`.',
  ].join('\n');
  await writeResultsSection('Soak', section);
}
