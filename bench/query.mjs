// Server read path at 100,000 calls: how long the queries the web UI and the
// CLI make take once a project is large (server-side filtering and paging).
//
//   node bench/query.mjs [--calls 100000] [--storage sqlite|clickhouse|chdb|clickhouse://HOST:PORT/DB] [--replicas 2] [--runs 21]
//   node bench/query.mjs --storage chdb --calls 10000000 --generate [--seed 30000]
//   node bench/query.mjs --storage chdb --calls 10000000 --keep /tmp/ch10m --only trace --no-results   (A/B: some cases, RESULTS.md left alone)
// Uses the BUILT packages (`npx turbo run build`). Writes the "Query" section
// of bench/RESULTS.md ("Query, N calls" for another size) and bench/out/query*.json.
//
// `--generate` (ClickHouse 24+ and chDB): see bench/lib/generated-calls.mjs.
// On ClickHouse (servers or chDB) the calls are loaded through the storage
// engine's own ingest (`ClickHouseStorage.ingestCalls`, batches of 10,000, in
// this process), so the rows are exactly what `weft serve` writes without the
// HTTP hop; one trace of 25,001 calls sits in the middle, and the last case
// loads it whole, page by page, as the UI's trace view does. Each ClickHouse
// case's list query is profiled afterwards (`EXPLAIN indexes = 1`, and
// `EXPLAIN ESTIMATE` for the rows it reads) into bench/out/query-profile-*.txt.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { callsOfTraceColumns, encodeMsgpack, routes } from '../packages/protocol/dist/index.js';
import { ClickHouseStorage, parseStorageUrl, startServer } from '../packages/server/dist/index.js';
import { checkGenerated, copySeedCalls, numberedId } from './lib/generated-calls.mjs';
import { writeResultsSection } from './lib/results-file.mjs';
import { queryCases } from './lib/query-cases.mjs';
import { profileQueries } from './lib/query-profile.mjs';
import { engineClient, storageTarget } from './lib/storage-target.mjs';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    storage: { type: 'string', default: 'sqlite' },
    /** Servers sharing the storage (ClickHouse); queries alternate between them. */
    replicas: { type: 'string', default: '1' },
    /** Times each query runs (median, p95 and max of these). */
    runs: { type: 'string', default: '21' },
    /**
     * ClickHouse: load `--seed` calls through ingest and make the rest inside
     * the engine as copies of them (bench/lib/generated-calls.mjs), checked
     * against real ingest of 1,000 of them; for 10,000,000 calls.
     */
    generate: { type: 'boolean', default: false },
    seed: { type: 'string', default: '60000' },
    /**
     * chDB: keep the loaded calls in this folder (database `bench_keep_<calls>`) and, when a
     * later run finds them there, query them without loading again (to iterate on read paths).
     */
    keep: { type: 'string' },
    /** Run only the cases whose label holds this text (e.g. `trace`, `newest`). */
    only: { type: 'string' },
    /** Leave bench/RESULTS.md as it is (bench/out/ is still written): for A/B runs. */
    'no-results': { type: 'boolean', default: false },
  },
});
const total = Number(args.calls);
const seedCalls = Number(args.seed);
const here = fileURLToPath(new URL('.', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'weft-bench-query-'));
const target = await storageTarget(args.storage, args.keep === undefined ? {} : { keep: args.keep });
const keptName = args.keep === undefined ? undefined : `bench_keep_${args.calls}`;
const where = target.fresh(dir, keptName);
/** `--keep`: what the kept load was made with (its start time and trace), if it is there already. */
const keptFile = keptName === undefined ? undefined : join(args.keep, `${keptName}.json`);
const kept =
  keptFile === undefined ? undefined : await readFile(keptFile, 'utf8').then(JSON.parse, () => undefined);
// The whole-project folds (sort by latency) of a large project outlast the default 15 s request
// timeout on a loaded machine; the bench measures how long they take rather than a 503.
if (where.storage?.startsWith('clickhouse')) where.storage += '?timeoutMs=120000';
const replicas = target.kind === 'sqlite' ? 1 : Number(args.replicas);
const servers = [];
for (let r = 0; r < replicas; r++) {
  servers.push(
    await startServer({
      port: 0,
      dbPath: where.dbPath ?? join(dir, 'weft.db'),
      uiDir: false,
      ...(where.storage ? { storage: where.storage } : {}),
    }),
  );
}
const ingestStarted = performance.now();
const load = [loadavg()[0]];
/** The trace the last case loads whole: a root and TRACE_CHILDREN children, starting at the middle call. */
const TRACE_CHILDREN = 25_000;
const traceAt = Math.floor(total / 2);
const traceRoot = kept?.traceRoot ?? randomUUID();

// Root calls of four common ops and one rare op (1 in 1,000), 200-byte inputs, 300-byte outputs.
const ops = ['agent.step', 'llm.chat', 'tool.search', 'retrieve'];
// Text for full-text search: words drawn from a 5,000-word vocabulary with a
// Zipf-like skew (a few words in most calls, most words in few), from a fixed
// seed; attributes: env (2 values), tier (3), user.id (1,000 users), tags
// ('vip' in 1 of 20 calls), and a session per 10 calls.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const word = () => `w${Math.floor(5_000 ** random()).toString(36)}`;
const sentence = (count) => Array.from({ length: count }, word).join(' ');
const t0 = kept?.t0 ?? Date.now();
// Batches of 2,000 with 3 in flight: the load is setup, not what is measured,
// and one batch at a time left the server (and ClickHouse) idle between batches.
const BATCH = 2_000;
const IN_FLIGHT = 3;
let n = 0;
let sent = 0;
/** `--generate`: call n's text repeats every `seedCalls` calls (see bench/lib/generated-calls.mjs); else every call's is its own. */
const textPeriod = args.generate ? seedCalls : Number.MAX_SAFE_INTEGER;
/** Call n as the SDK sends it; `trace` makes it the trace's root (j = 0) or its child j. */
const callItem = (n, trace) => {
  const op = n % 1000 === 0 ? 'rare.op' : ops[n % 4];
  // A child's id starts with its trace id's first 8 bytes, as the SDK mints it.
  const id =
    trace === undefined
      ? args.generate
        ? numberedId(n)
        : randomUUID()
      : trace.j === 0
        ? traceRoot
        : `${traceRoot.slice(0, 19)}${randomUUID().slice(19)}`;
  const startedAt = trace?.startedAt ?? t0 + n;
  seed = 1 + (((n % textPeriod) * 48_271) % 2_147_483_646);
  return {
    type: 'complete',
    id,
    traceId: trace === undefined ? id : traceRoot,
    parentId: trace === undefined || trace.j === 0 ? null : traceRoot,
    opName: op,
    displayName: `${op} #${n}`,
    startedAt,
    endedAt: startedAt + (n % 50),
    inputs: { q: `${sentence(20)} ${'x'.repeat(80)}` },
    output: { a: `${sentence(30)} ${'y'.repeat(100)}` },
    summary: { latencyMs: n % 50 },
    attributes: {
      env: n % 2 ? 'prod' : 'dev',
      tier: n % 3,
      'user.id': `u${n % 1000}`,
      tags: n % 20 === 0 ? ['vip', 'eu'] : ['eu'],
    },
    sessionId: `s${Math.floor(n / 10)}`,
  };
};
/** The next BATCH calls up to `until`; on ClickHouse (not generated) calls traceAt … traceAt + TRACE_CHILDREN are the trace. */
const nextBatch = (until = total) => {
  const items = [];
  for (let i = 0; i < BATCH && n < until; i++, n++) {
    const j = n - traceAt;
    const inTrace = target.kind !== 'sqlite' && !args.generate && j >= 0 && j <= TRACE_CHILDREN;
    items.push(callItem(n, inTrace ? { j, startedAt: t0 + n } : undefined));
  }
  return items;
};
const loader = async () => {
  while (n < total) {
    const items = nextBatch();
    const url = servers[sent++ % servers.length].url + routes.callBatch();
    const body = encodeMsgpack({ project: 'big', items });
    let res;
    // A keep-alive socket the server closed as a batch went out (SQLite's in-process writes
    // delay its timers): send the batch again, writes are idempotent.
    for (let attempt = 1; res === undefined; attempt++) {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/msgpack' },
        body,
      }).catch((error) => {
        if (attempt >= 5 || error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
        return undefined;
      });
    }
    if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
  }
};
/** ClickHouse: the engine's own ingest in this process, larger batches, no HTTP; calls up to `until`. */
const loadDirect = async (storageUrl, until) => {
  const storage = await ClickHouseStorage.open(parseStorageUrl(storageUrl).options);
  const BIG = 10_000;
  const loaderDirect = async () => {
    while (n < until) {
      const items = [];
      while (items.length < BIG && n < until) items.push(...nextBatch(until));
      await storage.ingestCalls('big', items);
    }
  };
  await Promise.all([loaderDirect(), loaderDirect()]);
  await storage.close();
};
/** What `--generate` did: seconds per step and the check of copies against real ingest. */
const generated = kept?.generated ?? {};
if (kept !== undefined) process.stderr.write(`reusing the calls kept in ${args.keep}\n`);
else if (target.kind === 'sqlite') await Promise.all(Array.from({ length: IN_FLIGHT }, loader));
else if (!args.generate) await loadDirect(where.storage, total);
else {
  let started = performance.now();
  const lap = () => {
    const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
    started = performance.now();
    return seconds;
  };
  await loadDirect(where.storage, seedCalls);
  generated.seedSeconds = lap();
  // The trace: its own calls (numbers past the others), at the middle of the time range, 1 µs apart.
  const storage = await ClickHouseStorage.open(parseStorageUrl(where.storage).options);
  for (let j = 0; j <= TRACE_CHILDREN; j += BATCH) {
    const items = [];
    for (let i = j; i < Math.min(j + BATCH, TRACE_CHILDREN + 1); i++)
      items.push(callItem(total + i, { j: i, startedAt: t0 + traceAt + i / 1000 }));
    await storage.ingestCalls('big', items);
  }
  await storage.close();
  generated.traceSeconds = lap();
  const engine = await engineClient(target);
  await copySeedCalls(engine, {
    database: where.database,
    project: 'big',
    seedCalls,
    total,
    onProgress: (done) => process.stderr.write(`copied up to call ${done}\n`),
  });
  generated.copySeconds = lap();
  // The check: calls seedCalls … seedCalls + 1,000 ingested for real into another database, compared column by column.
  const fresh = target.fresh(dir);
  n = seedCalls;
  await loadDirect(fresh.storage, seedCalls + 1_000);
  generated.check = await checkGenerated(engine, {
    database: where.database,
    fresh: fresh.database,
    project: 'big',
    from: seedCalls,
    to: seedCalls + 1_000,
  });
  await engine.command(`DROP DATABASE ${fresh.database}`);
  await engine.close();
  process.stderr.write(`generated: ${JSON.stringify(generated)}\n`);
  for (const [table, check] of Object.entries(generated.check))
    if (check.onlyCopied !== 0 || check.onlyIngested !== 0 || check.rows === 0)
      throw new Error(`generated ${table} rows differ from ingested ones: ${JSON.stringify(check)}`);
}

/** The load's seconds: this run's, or (`--keep`, reused) those of the run that made it. */
const ingestSeconds = kept?.ingestSeconds ?? (performance.now() - ingestStarted) / 1000;
if (keptFile !== undefined && kept === undefined)
  await writeFile(keptFile, JSON.stringify({ t0, traceRoot, generated, ingestSeconds }));
const cases = queryCases(total, t0);
/** The UI's trace view: every call of one trace, light and columnar, in one read (`routes.traceColumns`), decoded. */
const TRACE_CASE = `a ${(TRACE_CHILDREN + 1).toLocaleString('en-US')}-call trace, loaded whole (one light read)`;
if (target.kind !== 'sqlite') cases.push([TRACE_CASE, { traceId: traceRoot }]);
if (args.only !== undefined)
  cases.splice(0, cases.length, ...cases.filter(([label]) => label.includes(args.only)));
/** The SQL each case ran on its first run (ClickHouse), for the profile. */
const captured = new Map();
let capturing;
const onQuery = ({ sql }) => capturing?.push(sql);
subscribe('weft:clickhouse:query', onQuery);
const RUNS = Number(args.runs);
const results = [];
for (const [label, filter] of cases) {
  const times = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    capturing = i === 0 ? [] : undefined;
    const started = performance.now();
    // One page of a list; the trace as the trace view reads it.
    const url = servers[i % servers.length].url;
    const res =
      label === TRACE_CASE
        ? await fetch(url + routes.traceColumns('big', filter.traceId))
        : await fetch(url + routes.callQuery(), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ project: 'big', limit: 50, ...filter }),
          });
    const text = await res.text();
    const parsed = res.status === 200 ? JSON.parse(text) : undefined;
    // The trace as the trace view has it: its columns turned back into calls.
    const body = label === TRACE_CASE && parsed?.ids ? { calls: callsOfTraceColumns(parsed) } : parsed;
    // An error answer (503 when storage timed out, 500…) stops the run with what the server said.
    if (!Array.isArray(body?.calls)) throw new Error(`${label}: HTTP ${res.status}: ${text.slice(0, 2_000)}`);
    rows = body.calls.length;
    times.push(performance.now() - started);
    if (i === 0) captured.set(label, capturing);
  }
  times.sort((a, b) => a - b);
  const at = (q) => Number(times[Math.min(RUNS - 1, Math.ceil(q * RUNS) - 1)].toFixed(1));
  results.push({
    label,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    maxMs: Number(times[RUNS - 1].toFixed(1)),
    rows,
  });
}
await Promise.all(servers.map((s) => s.close()));
unsubscribe('weft:clickhouse:query', onQuery);
const profile =
  target.kind === 'sqlite' ? undefined : await profileQueries(await engineClient(target), captured, results);
let engineVersion;
if (target.kind === 'chdb') {
  const engine = await engineClient(target);
  engineVersion = (await engine.rows('SELECT version() AS v'))[0]?.v;
  await engine.close();
}
await target.dispose();
await rm(dir, { recursive: true, force: true });
load.push(loadavg()[0]);

const meta = {
  date: new Date().toISOString(),
  node: process.version,
  calls: total,
  loadAverage: load.map((l) => Number(l.toFixed(2))),
};
await mkdir(join(here, 'out'), { recursive: true });
const onSqlite = target.kind === 'sqlite';
if (profile !== undefined) {
  await writeFile(join(here, 'out', `query-profile-${target.kind}-${total}.txt`), profile);
}
const count = total.toLocaleString('en-US');
const loading = args.generate
  ? `loading took ${ingestSeconds.toFixed(0)} s: ${seedCalls.toLocaleString('en-US')} calls through the engine's ingest (${generated.seedSeconds} s) and the trace (${generated.traceSeconds} s), the other ${(total - seedCalls).toLocaleString('en-US')} copied from them inside the engine (\`--generate\`, ${generated.copySeconds} s; bench/lib/generated-calls.mjs), and calls ${seedCalls.toLocaleString('en-US')}–${(seedCalls + 999).toLocaleString('en-US')} ingested for real into another database equal their copies in every column of calls (${generated.check.calls.rows} rows), call_list (${generated.check.call_list.rows} rows)${generated.check.call_trace === undefined ? '' : ` and call_trace (${generated.check.call_trace.rows} rows)`}, write counters aside; monitoring rollups hold the seed only`
  : `loading the ${count} calls (batches of ${BATCH.toLocaleString('en-US')}, ${IN_FLIGHT} in flight) took ${ingestSeconds.toFixed(0)} s`;
const sqliteTitle = total === 100_000 ? 'Query' : `Query, ${count} calls`;
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const engineName =
  target.kind === 'chdb' ? `chDB (${target.label}, ClickHouse ${engineVersion})` : 'ClickHouse';
const title = onSqlite
  ? sqliteTitle
  : target.kind === 'chdb'
    ? `Query on chDB, ${count} calls`
    : `Query on ClickHouse, ${count} calls, ${replicas} replica${replicas === 1 ? '' : 's'}`;
await writeFile(
  join(
    here,
    'out',
    onSqlite
      ? `query${total === 100_000 ? '' : `-${total}`}.json`
      : `query-${target.kind}-${total}-${replicas}.json`,
  ),
  `${JSON.stringify({ ...meta, storage: target.label, replicas, ingestSeconds, results }, null, 2)}\n`,
);
if (args['no-results']) {
  // A/B runs: the figures go to stdout and bench/out/ only.
} else if (!onSqlite) {
  await writeResultsSection(
    title,
    [
      `## ${title}`,
      '',
      `\`nice node bench/query.mjs ${process.argv.slice(2).join(' ')}\` — ${meta.date}, Node ${meta.node}, commit ${commit}, 1-minute load average ${meta.loadAverage[0]} before / ${meta.loadAverage[1]} after (2 cores shared with other work);`,
      `${target.kind === 'chdb' ? engineName : target.label} on the same machine, ${replicas} in-process server(s) sharing one database; ${loading} (the engine's own ingest in this process, batches of 10,000, 2 in flight).`,
      `The calls and queries of the SQLite section, plus one ${(TRACE_CHILDREN + 1).toLocaleString('en-US')}-call trace loaded whole; \`limit: 50\`, each query ${RUNS} times: median, p95 and max.`,
      "Rows read: `EXPLAIN ESTIMATE` of the case's list query (call_list); plans in bench/out/query-profile-*.txt.",
      '',
      '| Query | Median ms | p95 ms | Max ms | Rows | Rows read |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...results.map(
        (r) => `| ${r.label} | ${r.medianMs} | ${r.p95Ms} | ${r.maxMs} | ${r.rows} | ${r.rowsRead ?? ''} |`,
      ),
      '',
    ].join('\n'),
  );
} else
  await writeResultsSection(
    sqliteTitle,
    [
      `## ${sqliteTitle}`,
      '',
      `\`node bench/query.mjs${total === 100_000 ? '' : ` --calls ${total}`}\` — ${meta.date}, Node ${meta.node}, 1-minute load average ${meta.loadAverage[0]} before / ${meta.loadAverage[1]} after.`,
      `A project of ${count} root calls in the built server (SQLite, in-process), queried over HTTP with`,
      `\`limit: 50\` as the web UI and \`weft calls\` do; each query ${RUNS} times: median, p95 and max. Calls carry`,
      'attributes (env, tier, user.id, tags), a session id per 10 calls, and inputs/outputs of 20/30 words from a',
      `5,000-word vocabulary (Zipf-like) for the full-text search; ${loading}.`,
      '',
      '| Query | Median ms | p95 ms | Max ms | Rows |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...results.map((r) => `| ${r.label} | ${r.medianMs} | ${r.p95Ms} | ${r.maxMs} | ${r.rows} |`),
      '',
    ].join('\n'),
  );
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
