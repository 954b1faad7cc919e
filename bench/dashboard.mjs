// The default dashboard over 30 days: how long its eight panels take to
// answer (each one `POST /v1/metrics/query`, all eight at once as the web UI
// sends them) once a project holds `--calls` calls spread over those 30 days.
// Target (issue 29): p95 < 100 ms at 1,000,000 calls on SQLite, < 300 ms at
// 10,000,000 on ClickHouse.
//
//   node bench/dashboard.mjs [--calls 1000000] [--storage sqlite|clickhouse|chdb|clickhouse://…] [--runs 21]
//     [--keep DIR] [--generate [--minutes all|edges]]
//
// `--keep DIR` (SQLite or chDB): the database stays in DIR; a later run with
// the same DIR and --calls reads it again instead of loading the calls anew
// (the 30 days are those of the first run, kept in DIR/range.json).
// `--generate` (ClickHouse, chDB): instead of loading calls over HTTP (hours
// at 10,000,000 calls), the rollup rows ingest would write for them are made
// inside the engine (bench/lib/dashboard-calls.mjs; raw calls are not stored,
// the dashboard reads rollups only), after a check on 3,000 calls: their
// generated rollups equal those HTTP ingest writes, key by key, and the
// panels' answers equal a recomputation (bench/lib/dashboard-check.mjs).
// `--minutes edges`: minute rows only for the first and last hour, the only
// minutes the dashboard reads (see `generateRollups`).
//
// Uses the BUILT packages (`npx turbo run build`). Calls are loaded over
// HTTP (msgpack batches of 5,000, 3 in flight) into the built server in this
// process; they are small (no inputs or outputs worth the name): rollups,
// which the dashboard reads, keep none of that. Writes the "Dashboard"
// section of bench/RESULTS.md ("Dashboard, N calls, <storage>" for others)
// and bench/out/dashboard*.json.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeMsgpack, routes } from '../packages/protocol/dist/index.js';
import {
  DAY,
  dashboardItems,
  generateRollups,
  PANELS,
  PROJECT,
  queryPanel,
  startDashboardServer,
} from './lib/dashboard-calls.mjs';
import { checkGenerator } from './lib/dashboard-check.mjs';
import { writeResultsSection } from './lib/results-file.mjs';
import { engineClient, storageTarget } from './lib/storage-target.mjs';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000000' },
    storage: { type: 'string', default: 'sqlite' },
    runs: { type: 'string', default: '21' },
    keep: { type: 'string' },
    generate: { type: 'boolean', default: false },
    minutes: { type: 'string', default: 'all' },
  },
});
const total = Number(args.calls);
const runs = Number(args.runs);
const here = fileURLToPath(new URL('.', import.meta.url));
const target = await storageTarget(
  args.storage,
  args.keep === undefined ? {} : { keep: join(args.keep, 'chdb') },
);
if (args.keep !== undefined && target.kind === 'clickhouse')
  throw new Error('--keep works with --storage sqlite or chdb');
if (args.generate && target.kind === 'sqlite') throw new Error('--generate works with ClickHouse or chDB');
const dir = args.keep ?? (await mkdtemp(join(tmpdir(), 'weft-bench-dashboard-')));
await mkdir(dir, { recursive: true });
/** The 30 days of a kept database (`undefined`: load the calls). */
const kept = await readFile(join(dir, 'range.json'), 'utf8').then(JSON.parse, () => undefined);
if (kept !== undefined && kept.total !== total)
  throw new Error(`${dir} holds ${kept.total} calls, not ${total}`);
const where =
  args.keep !== undefined && target.kind === 'chdb' ? target.fresh(dir, 'dash_keep') : target.fresh(dir);
const to = kept?.to ?? Math.ceil(Date.now() / 60_000) * 60_000;
const from = to - 30 * DAY;
const load = [loadavg()[0]];
/** `--generate`: the check of the generator on a small set, and the seconds it took to generate. */
let generated = kept?.generated;
if (args.generate && kept === undefined) {
  const engine = await engineClient(target);
  const check = await checkGenerator({ target, engine, dir, to });
  // A server opens the database first: it makes the tables.
  await (await startDashboardServer(dir, where.storage)).close();
  const started = performance.now();
  await generateRollups(engine, where.database, {
    minutes: args.minutes,
    total,
    to,
    onProgress: (done) => {
      if (done % 1_000_000 === 0 || done === total)
        process.stderr.write(`rollups of ${done} calls written\n`);
    },
  });
  generated = { check, seconds: (performance.now() - started) / 1_000, minutes: args.minutes };
  await engine.close();
}
const server = await startDashboardServer(dir, where.storage, {
  // The loader shares this process's thread with the server: while the server
  // stores one batch (seconds on a busy machine), the other connections wait,
  // and the server's idle and keep-alive timeouts fired on them as soon as
  // the thread was free ("fetch failed": other side closed, ECONNRESET, two
  // 1,000,000-call loads lost). The bench measures reads, not the timeouts.
  headersTimeoutMs: 300_000,
  requestTimeoutMs: 600_000,
  idleTimeoutMs: 600_000,
  keepAliveTimeoutMs: 600_000,
});

const BATCH = 5_000;
const IN_FLIGHT = 3;
let n = kept === undefined && !args.generate ? 0 : total;
const loadStarted = performance.now();
const loader = async () => {
  while (n < total) {
    const batch = [];
    while (batch.length < BATCH && n < total) batch.push(...dashboardItems(n++, { total, to }));
    const res = await fetch(server.url + routes.callBatch(), {
      method: 'POST',
      headers: { 'content-type': 'application/msgpack' },
      body: encodeMsgpack({ project: PROJECT, items: batch }),
    });
    if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
  }
};
await Promise.all(Array.from({ length: IN_FLIGHT }, loader));
const loadSeconds = kept?.loadSeconds ?? generated?.seconds ?? (performance.now() - loadStarted) / 1_000;
if (kept === undefined) {
  console.log(`loaded ${total} calls in ${loadSeconds.toFixed(0)} s`);
  if (args.keep !== undefined)
    await writeFile(join(dir, 'range.json'), JSON.stringify({ total, to, loadSeconds, generated }));
}

const query = (panel) => queryPanel(server.url, panel, { from, to });
// Every panel's answer checked once: the traces panel counts every call.
const check = await query(PANELS[0][1]);
const counted = check.body.series[0].values.reduce((sum, v) => sum + (v ?? 0), 0);
if (counted !== total) throw new Error(`the traces panel counts ${counted} calls, not ${total}`);
const points = check.body.buckets.length;
// One warm-up dashboard, then `runs` dashboards: all eight panels at once, as the browser sends them.
await Promise.all(PANELS.map(([, panel]) => query(panel)));
const dashboards = [];
const perPanel = PANELS.map(() => []);
// CPU time of this process (server and client) per dashboard: on a shared
// machine it varies far less than wall time with the other work running.
const cpuStarted = process.cpuUsage();
for (let r = 0; r < runs; r++) {
  const started = performance.now();
  const answers = await Promise.all(PANELS.map(([, panel]) => query(panel)));
  dashboards.push(performance.now() - started);
  for (const [i, a] of answers.entries()) perPanel[i].push(a.ms);
}
const cpu = process.cpuUsage(cpuStarted);
const cpuMsPerDashboard = (cpu.user + cpu.system) / 1_000 / runs;
load.push(loadavg()[0]);
await server.close();
if (args.keep === undefined) await rm(dir, { recursive: true, force: true });
await target.dispose();

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1) };
};
const fmt = (ms) => (ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));
const whole = stats(dashboards);
const target95 = target.kind === 'sqlite' ? 100 : 300;
const rows = [
  ['**whole dashboard (8 panels at once)**', whole],
  ...PANELS.map(([name], i) => [name, stats(perPanel[i])]),
];
const table = [
  '| Query | Median ms | p95 ms | Max ms |',
  '| --- | ---: | ---: | ---: |',
  ...rows.map(([name, s]) => `| ${name} | ${fmt(s.median)} | ${fmt(s.p95)} | ${fmt(s.max)} |`),
].join('\n');
const heading =
  total === 1_000_000 && target.kind === 'sqlite'
    ? 'Dashboard'
    : `Dashboard, ${total.toLocaleString('en-US')} calls, ${target.label}`;
const command = `node bench/dashboard.mjs --calls ${total}${args.storage === 'sqlite' ? '' : ` --storage ${args.storage}`}${args.generate ? ` --generate${args.minutes === 'all' ? '' : ` --minutes ${args.minutes}`}` : ''}${args.keep === undefined ? '' : ` --keep ${args.keep}`} --runs ${runs}`;
const loading =
  generated === undefined
    ? `Loading the calls (msgpack batches of ${BATCH.toLocaleString('en-US')}, ${IN_FLIGHT} in flight, rollups kept as they arrive) took ${loadSeconds.toFixed(0)} s.`
    : `No raw calls: their rollups were generated inside the engine (\`--generate\`, bench/lib/dashboard-calls.mjs; minute rows: ${generated.minutes === 'edges' ? 'only the first and last hour, the only minutes the dashboard reads' : 'all'}) in ${loadSeconds.toFixed(0)} s, after a check on ${generated.check.calls.toLocaleString('en-US')} calls: their generated rollups equal HTTP ingest's key by key (${generated.check.rollups.calls.rows.toLocaleString('en-US')} call and ${generated.check.rollups.feedback.rows.toLocaleString('en-US')} feedback keys) and the panels ${generated.check.panelsRecomputed.join(', ')} answer as a recomputation from the calls.`;
const section = `## ${heading}

\`${command}\` — ${new Date().toISOString()}, Node ${process.version}, 1-minute load average ${load[0].toFixed(2)} before / ${load[1].toFixed(2)} after (the machine is shared: other engineers' builds and tests ran meanwhile, so these are upper bounds).
The web UI's default dashboard over 30 days (${points} buckets of ${check.body.bucket}, UTC) on ${total.toLocaleString('en-US')} root calls spread evenly over them
(${target.label}; 5 ops, 3 models, 3% errors, a \`helpful\` score on one call in ten), each panel one \`POST /v1/metrics/query\` over HTTP
read from the rollups kept at ingest; ${runs} dashboards, each with its eight queries sent at once as the browser does: median, p95 and max.
CPU time per dashboard (this process: server and client): ${Math.round(cpuMsPerDashboard)} ms.
Target: the whole dashboard's p95 under ${target95} ms. ${loading}

${table}
`;
await writeResultsSection(heading, section);
await mkdir(join(here, 'out'), { recursive: true });
await writeFile(
  join(here, 'out', `dashboard-${target.kind}-${total}.json`),
  JSON.stringify(
    { total, storage: target.label, loadSeconds, load, cpuMsPerDashboard, dashboards, perPanel, points },
    null,
    2,
  ),
);
console.log(table);
console.log(
  `CPU per dashboard: ${cpuMsPerDashboard.toFixed(0)} ms; load ${load.map((l) => l.toFixed(1)).join(' / ')}`,
);
