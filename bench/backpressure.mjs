#!/usr/bin/env node
// Backpressure soak (issue 28): the built server (SQLite file, default limits)
// in a child process; its ingest capacity measured first (batches of 500
// 1 KB calls over 4 connections for --capacity-s seconds); then two SDK
// processes (the built `@weft/sdk`: weft.init + weft.op, outbox on) each
// make calls at a steady 60% of that capacity — 120% together — for
// --minutes. Meanwhile a third process probes /health and reads the newest
// calls back to back, and the server's RSS is sampled every second. When the
// load stops each SDK flushes and waits for its outbox to be replayed; then
// the server is stopped and its database counted by id.
//
//   npx turbo run build
//   node bench/backpressure.mjs                   # 10 minutes at 120%
//   node bench/backpressure.mjs --minutes 1 --load 1.2 --no-write
import { fork, spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { writeResultsSection } from './lib/results-file.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const self = fileURLToPath(import.meta.url);
const prober = fileURLToPath(new URL('../packages/server/test/support/health-prober.mjs', import.meta.url));
const serverEntry = new URL('../packages/server/dist/index.js', import.meta.url);
const FILLER = 'x'.repeat(1_000);

const { values: args } = parseArgs({
  options: {
    serve: { type: 'string' },
    send: { type: 'string' },
    url: { type: 'string' },
    project: { type: 'string', default: 'soak' },
    rate: { type: 'string' },
    outbox: { type: 'string' },
    minutes: { type: 'string', default: '10' },
    /** Offered load as a multiple of the measured capacity. */
    load: { type: 'string', default: '1.2' },
    'capacity-s': { type: 'string', default: '20' },
    /**
     * The server's `maxRequestsInFlight`. 2, under the 4 batches the two SDKs
     * keep out at once, so the server's refusals (503 + Retry-After) take part;
     * with the default 8 the SDKs' own bounds alone hold the load back.
     */
    'max-requests': { type: 'string', default: '2' },
    'no-write': { type: 'boolean', default: false },
    'report-only': { type: 'boolean', default: false },
  },
});

if (args.serve) await serve(args.serve, Number(args['max-requests']));
else if (args.send) await send(args.send);
else if (args['report-only'])
  await writeSection(JSON.parse(await readFile(join(here, 'out/backpressure.json'), 'utf8')));
else await main();

/** Child: the built server until SIGTERM (graceful close). */
async function serve(dbPath, maxRequestsInFlight) {
  const { startServer } = await import(serverEntry.href);
  const server = await startServer({ host: '127.0.0.1', port: 0, dbPath, uiDir: false, maxRequestsInFlight });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.send({ url: server.url });
}

/** Child: one SDK process making `--rate` calls a second for `--minutes`, then flush and outbox replay. */
async function send(sender) {
  const weft = await import('@weft/sdk');
  const rate = Number(args.rate);
  const seconds = Number(args.minutes) * 60;
  const client = weft.init({
    project: args.project,
    url: args.url,
    outboxDir: args.outbox,
    handleExit: false,
  });
  const transport = { retries: 0, overloaded: 0, maxRetryDelayMs: 0, spills: 0 };
  subscribe('weft:transport', (event) => {
    if (event.type === 'spill') transport.spills++;
    if (event.type !== 'retry') return;
    transport.retries++;
    transport.maxRetryDelayMs = Math.max(transport.maxRetryDelayMs, event.delayMs);
    if (event.reason.includes('busy')) transport.overloaded++;
  });
  const work = weft.op(function work(i) {
    return { key: `${sender}:${i}`, text: FILLER };
  });
  let made = 0;
  let outboxMax = 0;
  let queueMax = 0;
  const t0 = performance.now();
  const calls = Math.round(rate * seconds);
  await new Promise((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(calls, Math.floor(((performance.now() - t0) / 1000) * rate));
      for (; made < due; made++) work(made);
      const d = client.diagnostics();
      outboxMax = Math.max(outboxMax, d.outbox ? d.outbox.records + d.outbox.pendingRecords : 0);
      queueMax = Math.max(queueMax, d.queue.records);
      if (made >= calls) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  const madeS = (performance.now() - t0) / 1000;
  const flushStarted = performance.now();
  await weft.flush();
  const flushMs = performance.now() - flushStarted;
  let outboxLeft = 0;
  for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline; await sleep(100)) {
    const outbox = client.diagnostics().outbox;
    outboxLeft = outbox ? outbox.records + outbox.pendingRecords : 0;
    if (outboxLeft === 0) break;
  }
  const drainMs = performance.now() - flushStarted;
  const { delivery } = client.diagnostics();
  await weft.shutdown({ timeoutMs: 10_000 });
  process.send({
    sender,
    made,
    madeS: +madeS.toFixed(1),
    achievedRate: Math.round(made / madeS),
    delivery,
    transport,
    outboxMax,
    queueMax,
    outboxLeft,
    flushMs: Math.round(flushMs),
    drainMs: Math.round(drainMs),
  });
  process.disconnect();
}

/** The tests' liveness prober (its own process): /health and a read of the newest calls, back to back, until its stdin ends. */
function startProber(url, project) {
  const proc = spawn(process.execPath, [prober, url, project], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const rounded = ({ probes, p50Ms, p99Ms, maxMs, failures }) => {
    const ms = (value) => +value.toFixed(1);
    return { probes, p50Ms: ms(p50Ms), p99Ms: ms(p99Ms), maxMs: ms(maxMs), failures };
  };
  return {
    /** Resolves once the first probe is under way. */
    started: lines.next(),
    /** Ends the probing; resolves with the percentiles of /health and of the read. */
    async stop() {
      proc.stdin.end();
      const { value } = await lines.next();
      const { read, ...health } = JSON.parse(value);
      return { health: rounded(health), read: rounded(read) };
    },
  };
}

function child(argv) {
  const proc = fork(self, argv, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const messages = [];
  const waiters = [];
  proc.on('message', (message) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else messages.push(message);
  });
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const next = () =>
    messages.length > 0
      ? Promise.resolve(messages.shift())
      : new Promise((resolve, reject) => {
          waiters.push(resolve);
          void exited.then(({ code }) => reject(new Error(`child ${argv[0]} exited with ${code}`)));
        });
  return { proc, next, exited };
}

async function memory(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  return { rssMiB: kib('VmRSS'), peakMiB: kib('VmHWM') };
}

/** Ingest capacity: batches of 500 calls like the SDK's, over `connections` (the server's limit), for `seconds`. */
async function measureCapacity(url, seconds, connections) {
  const { encodeMsgpack } = await import('@weft/protocol');
  const started = performance.now();
  let accepted = 0;
  let n = 0;
  const until = started + seconds * 1_000;
  const connection = async () => {
    while (performance.now() < until) {
      const items = Array.from({ length: 500 }, () => {
        const i = n++;
        const id = `0190a5f0-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;
        const at = 1_700_000_000_000 + i;
        return {
          type: 'complete',
          id,
          traceId: id,
          parentId: null,
          opName: 'work',
          startedAt: at,
          endedAt: at + 5,
          inputs: { i },
          output: { key: `capacity:${i}`, text: FILLER },
        };
      });
      const answer = await fetch(`${url}/v1/calls/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/msgpack' },
        body: encodeMsgpack({ project: 'capacity', items }),
      });
      await answer.arrayBuffer();
      if (answer.status === 200) accepted += items.length;
    }
  };
  await Promise.all(Array.from({ length: connections }, connection));
  return Math.round(accepted / ((performance.now() - started) / 1000));
}

async function main() {
  const minutes = Number(args.minutes);
  const load = Number(args.load);
  const dir = await mkdtemp(join(tmpdir(), 'weft-backpressure-'));
  const dbPath = join(dir, 'weft.db');
  const project = args.project;
  const loadBefore = loadavg()[0];
  const maxRequests = Number(args['max-requests']);
  const server = child(['--serve', dbPath, '--max-requests', String(maxRequests)]);
  const { url } = await server.next();

  const capacity = await measureCapacity(url, Number(args['capacity-s']), maxRequests);
  const perSender = Math.round((capacity * load) / 2);
  console.log(`capacity ${capacity} calls/s; offering ${perSender} calls/s from each of 2 SDK processes`);

  const samples = [];
  const t0 = performance.now();
  const sampler = setInterval(async () => {
    samples.push({
      t: Math.round((performance.now() - t0) / 1000),
      load1: loadavg()[0],
      ...(await memory(server.proc.pid)),
    });
  }, 1_000);
  const probing = startProber(url, project);
  await probing.started;
  const senders = ['a', 'b'].map((sender) =>
    child([
      '--send',
      sender,
      '--url',
      url,
      '--project',
      project,
      '--rate',
      String(perSender),
      '--minutes',
      String(minutes),
      '--outbox',
      join(dir, `outbox-${sender}`),
    ]),
  );
  const reports = await Promise.all(senders.map((s) => s.next()));
  const probes = await probing.stop();
  clearInterval(sampler);
  const { peakMiB } = await memory(server.proc.pid);
  server.proc.kill('SIGTERM');
  await server.exited;

  const db = new Database(dbPath, { readonly: true });
  const stored = db
    .prepare(
      'SELECT count(*) AS rows, count(DISTINCT id) AS ids, sum(has_start = 1 AND has_end = 1) AS complete FROM calls WHERE project = ?',
    )
    .get(project);
  db.close();
  await rm(dir, { recursive: true, force: true });

  const made = reports.reduce((sum, r) => sum + r.made, 0);
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    load1: {
      before: +loadBefore.toFixed(1),
      after: +loadavg()[0].toFixed(1),
      duringMean: mean(samples.map((s) => s.load1)),
    },
    minutes,
    load,
    maxRequests,
    capacitySeconds: Number(args['capacity-s']),
    capacity,
    perSender,
    made,
    stored,
    lost: made - stored.complete,
    duplicates: stored.rows - stored.ids,
    server: {
      rssMaxMiB: Math.max(...samples.map((s) => s.rssMiB)),
      peakMiB,
      rssFirstMinuteMiB: mean(samples.slice(0, 60).map((s) => s.rssMiB)),
      rssLastMinuteMiB: mean(samples.slice(-60).map((s) => s.rssMiB)),
    },
    probes,
    reports,
    samples,
  };
  const { samples: _, ...brief } = result;
  console.log(JSON.stringify(brief, null, 2));
  if (!args['no-write']) {
    await mkdir(join(here, 'out'), { recursive: true });
    await writeFile(join(here, 'out/backpressure.json'), `${JSON.stringify(result, null, 1)}\n`);
    await writeSection(result);
  }
  if (result.lost !== 0 || result.duplicates !== 0) process.exitCode = 1;
}

function mean(list) {
  return list.length === 0 ? 0 : +(list.reduce((a, b) => a + b, 0) / list.length).toFixed(1);
}

async function writeSection(r) {
  const n = (x) => x.toLocaleString('en-US');
  const sum = (key) => r.reports.reduce((total, report) => total + key(report), 0);
  const section = [
    '## Backpressure',
    '',
    `\`node bench/backpressure.mjs --minutes ${r.minutes} --load ${r.load} --max-requests ${r.maxRequests}\` — ${r.date}, Node ${r.node}, 2 CPUs, 1-minute load average ${r.load1.before} before / ${r.load1.after} after, ${r.load1.duringMean} on average during the run (other work on the machine).`,
    `The built server (SQLite file; \`maxRequestsInFlight\` ${r.maxRequests}, under the 4 batches the two SDKs keep out, so it refuses some) in a child process. Its capacity, measured first: ${n(r.capacity)} calls/s`,
    `(batches of 500 calls with a 1 KB output over ${r.maxRequests} connections, ${r.capacitySeconds} s). Then two SDK processes (built \`@weft/sdk\`, outbox on) each made ${n(r.perSender)} calls/s`,
    `(${Math.round(r.load * 100)}% of capacity together) for ${r.minutes} minutes, while a third process probed \`/health\` and read the 10 newest calls back to back.`,
    'After the load each SDK flushed and waited for its outbox to be replayed; the server was stopped and its database counted by id.',
    '',
    '| Calls made | Arrived (complete, by id) | Lost | Duplicates | Server RSS max MiB (first / last minute mean) | `/health` p50 / p99 / max ms | Read p50 / p99 / max ms | Probe failures |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${n(r.made)} | ${n(r.stored.complete)} | ${n(r.lost)} | ${n(r.duplicates)} | ${r.server.rssMaxMiB.toFixed(0)} (${r.server.rssFirstMinuteMiB} / ${r.server.rssLastMinuteMiB}) | ${r.probes.health.p50Ms} / ${r.probes.health.p99Ms} / ${r.probes.health.maxMs} | ${r.probes.read.p50Ms} / ${r.probes.read.p99Ms} / ${r.probes.read.maxMs} | ${r.probes.health.failures + r.probes.read.failures} |`,
    '',
    '| SDK | Calls/s achieved | Sent / spilled / failed | Retries (503 overloaded) | Longest retry wait ms | Queue max | Outbox max | Flush + replay after the load ms |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...r.reports.map(
      (s) =>
        `| ${s.sender} | ${n(s.achievedRate)} | ${n(s.delivery.sent)} / ${n(s.delivery.spilled)} / ${n(s.delivery.failed)} | ${n(s.transport.retries)} (${n(s.transport.overloaded)}) | ${n(s.transport.maxRetryDelayMs)} | ${n(s.queueMax)} | ${n(s.outboxMax)} | ${n(s.drainMs)} |`,
    ),
    '',
    `Calls sent ${n(sum((s) => s.made))}, arrived ${n(r.stored.complete)}, duplicates ${n(r.duplicates)}. Per-second server RSS: \`bench/out/backpressure.json\`.`,
  ].join('\n');
  await writeResultsSection('Backpressure', section);
}
