// The dashboard bench's calls (bench/dashboard.mjs): call n of `total`,
// spread evenly over 30 days, and, for ClickHouse, `--generate`: the
// rollup rows ingest writes for those calls, made inside the engine
// (INSERT … SELECT), without the raw calls, which the dashboard never reads.
import { join } from 'node:path';
import { routes } from '../../packages/protocol/dist/index.js';
import { startServer } from '../../packages/server/dist/index.js';

export const DAY = 86_400_000;
export const PROJECT = 'dash';
const ops = ['agent.step', 'llm.chat', 'tool.search', 'retrieve', 'rerank'];
const models = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4'];

/** Call n's id: UUID-shaped, in the order of n (a batch's ids are neighbours in id-ordered tables). */
export const dashboardId = (n, kind = '8000') =>
  `${n.toString(16).padStart(8, '0')}-0000-4000-${kind}-${String(n).padStart(12, '0')}`;

/**
 * Call n of `total` over the 30 days before `to` and, for one in ten, its
 * `helpful` score: five ops, three models, a version attribute, 3% errors.
 */
export function dashboardItems(n, { total, to }) {
  const from = to - 30 * DAY;
  const id = dashboardId(n);
  const startedAt = from + Math.floor(((n + 0.5) * 30 * DAY) / total);
  const latency = 50 + ((n * 7919) % 2_000);
  const model = models[n % 3];
  const call = {
    type: 'complete',
    id,
    traceId: id,
    parentId: null,
    opName: ops[n % 5],
    startedAt,
    endedAt: startedAt + latency,
    inputs: { n },
    output: n % 33 === 0 ? null : { ok: true },
    ...(n % 33 === 0 ? { exception: { name: 'Error', message: 'upstream timeout' } } : {}),
    summary: {
      timeToFirstTokenMs: 40 + (n % 400),
      usage: {
        [model]: {
          requests: 1,
          inputTokens: 300 + (n % 700),
          outputTokens: 50 + (n % 200),
          totalTokens: 350 + (n % 700) + (n % 200),
        },
      },
    },
    attributes: { version: `v${n % 4}` },
  };
  if (n % 10 !== 0) return [call];
  return [
    call,
    {
      type: 'feedback',
      id: dashboardId(n, '9000'),
      callId: id,
      name: 'helpful',
      value: n % 30 !== 0,
      createdAt: startedAt + latency,
    },
  ];
}

/** `binOf` of log-histogram.ts (1% relative error): the server's bins, copied into SQL as a table by whole ms. */
const GAMMA = (1 + 0.01) / (1 - 0.01);
const binOf = (ms) => Math.ceil(Math.log(ms) / Math.log(GAMMA));
/** Bins of 0 … 2,100 ms (latencies are 50 … 2,049 ms, TTFTs 40 … 439 ms), for `arrayElement(…, ms + 1)`. */
const BINS = `[${Array.from({ length: 2_101 }, (_, ms) => (ms === 0 ? -32_768 : binOf(ms))).join(',')}]`;

/**
 * `--generate`: the rollup rows ingest writes for calls first…last−1 of
 * `total` (see `dashboardItems`), made inside the engine by one INSERT …
 * SELECT per `chunk` calls into the change tables, whose materialized
 * views fold them into the rollups' states as they do at ingest. Per
 * call: its totals, version and model cuts, per minute and hour, for its
 * op and for all ops (`*`), each a row of sums and a row per histogram
 * (its latency's and TTFT's bin); per score, the totals and version cuts,
 * a row of sums and one of its value. Raw calls are not stored: the
 * dashboard reads rollups only (every panel answers `source: 'rollup'`).
 * `checkGenerator` proves the rows equal real ingest's on a sample.
 * `minutes: 'edges'` writes minute rows only for the first and last hour
 * of the 30 days, the only ones the dashboard reads (the hours between come
 * from hour rows): at 10,000,000 calls the month's minute rows are ~130 M
 * rows the dashboard never reads, and hours to write on a shared machine.
 * @param {{ command(sql: string): Promise<void> }} engine
 */
export async function generateRollups(
  engine,
  database,
  { total, to, chunk = 500_000, minutes = 'all', onProgress },
) {
  const from = to - 30 * DAY;
  const HOUR = 3_600_000;
  const levels =
    minutes === 'all'
      ? "['m', 'h']"
      : `if(started < ${Math.ceil(from / HOUR) * HOUR} OR started >= ${Math.floor(to / HOUR) * HOUR}, ['m', 'h'], ['h'])`;
  const call = `
    toUInt64(number) AS n,
    toInt64(${from} + floor((((toFloat64(n) + 0.5) * 30) * ${DAY}) / ${total})) AS started,
    50 + (n * 7919) % 2000 AS latency_ms,
    40 + n % 400 AS ttft_ms,
    ['${ops.join("','")}'][n % 5 + 1] AS op_name,
    ['${models.join("','")}'][n % 3 + 1] AS model,
    concat('v', toString(n % 4)) AS version,
    if(n % 33 = 0, 'error', 'success') AS call_status,
    arrayJoin(${levels}) AS lvl,
    if(lvl = 'm', intDiv(started, 60000) * 60000, intDiv(started, 3600000) * 3600000) AS bucket,
    arrayJoin(['*', op_name]) AS key_op`;
  const CALL_COLUMNS =
    'project, cut, op, level, t, root, status, value, hist, bin, n, latency_sum_us, ttft_n, ttft_sum_us, input_tokens, output_tokens, cached_tokens, reasoning_tokens, total_tokens, cost_n, cost_nano';
  for (let first = 0; first < total; first += chunk) {
    const numbers = `numbers(${first}, ${Math.min(chunk, total - first)})`;
    await engine.command(`
      INSERT INTO ${database}.call_rollup_changes (${CALL_COLUMNS})
      SELECT '${PROJECT}', cv.1, key_op, lvl, bucket, 1, call_status, cv.2, hb.1, hb.2, count(),
        sum(if(hb.1 = '', latency_ms * 1000, 0)), countIf(hb.1 = ''), sum(if(hb.1 = '', ttft_ms * 1000, 0)),
        sum(if(hb.1 = '', toFloat64(300 + n % 700), 0)), sum(if(hb.1 = '', toFloat64(50 + n % 200), 0)), 0, 0,
        sum(if(hb.1 = '', toFloat64(350 + n % 700 + n % 200), 0)), 0, 0
      FROM (
        SELECT ${call},
          arrayJoin([('', ''), ('version', version), ('model', model)]) AS cv,
          arrayJoin([('', 0), ('l', ${BINS}[latency_ms + 1]), ('t', ${BINS}[ttft_ms + 1])]) AS hb
        FROM ${numbers}
      )
      GROUP BY cv, key_op, lvl, bucket, call_status, hb`);
    await engine.command(`
      INSERT INTO ${database}.feedback_rollup_changes
        (project, cut, op, level, t, root, name, value, dvalue, n, numeric_n, sum, sum_squares)
      SELECT '${PROJECT}', cv.1, key_op, lvl, bucket, 1, 'helpful', cv.2, dv, count(),
        countIf(dv = ''), sum(if(dv = '', x, 0)), sum(if(dv = '', x, 0))
      FROM (
        SELECT ${call}, toFloat64(n % 30 != 0) AS x,
          arrayJoin([('', ''), ('version', version)]) AS cv,
          arrayJoin(['', if(x = 1, 'true', 'false')]) AS dv
        FROM ${numbers} WHERE n % 10 = 0
      )
      GROUP BY cv, key_op, lvl, bucket, dv`);
    onProgress?.(Math.min(first + chunk, total));
  }
}

/** Every rollup key's finished sums, one line per key, in `database` (for comparing two databases). */
export function rollupRowsSql(database) {
  return {
    calls: `SELECT cut, op, level, t, root, status, value, hist, bin, sumMerge(n), sumMerge(latency_sum_us),
        sumMerge(ttft_n), sumMerge(ttft_sum_us), sumMerge(input_tokens), sumMerge(output_tokens),
        sumMerge(cached_tokens), sumMerge(reasoning_tokens), sumMerge(total_tokens), sumMerge(cost_n), sumMerge(cost_nano)
      FROM ${database}.call_rollups WHERE project = '${PROJECT}' GROUP BY cut, op, level, t, root, status, value, hist, bin`,
    feedback: `SELECT cut, op, level, t, root, name, value, dvalue, sumMerge(n), sumMerge(numeric_n), sumMerge(sum),
        sumMerge(sum_squares)
      FROM ${database}.feedback_rollups WHERE project = '${PROJECT}' GROUP BY cut, op, level, t, root, name, value, dvalue`,
  };
}

/**
 * Compares the rollups of two databases key by key (`engine`: SQL on the
 * bench's engine): rows only in one, only in the other, and in `a`.
 */
export async function compareRollups(engine, a, b) {
  const out = {};
  for (const table of ['calls', 'feedback']) {
    const [sa, sb] = [rollupRowsSql(a)[table], rollupRowsSql(b)[table]];
    const [onlyA, onlyB, rows] = await Promise.all([
      engine.rows(`SELECT count() AS n FROM (${sa} EXCEPT ${sb})`),
      engine.rows(`SELECT count() AS n FROM (${sb} EXCEPT ${sa})`),
      engine.rows(`SELECT count() AS n FROM (${sa})`),
    ]);
    out[table] = { rows: Number(rows[0].n), onlyA: Number(onlyA[0].n), onlyB: Number(onlyB[0].n) };
  }
  return out;
}

// The web UI's default dashboard (packages/ui/src/model/dashboard.ts): the same eight queries.
const roots = { parentId: null };
export const PANELS = [
  ['traces', { measures: ['count'], filter: roots }],
  ['error rate', { measures: ['errorRate'] }],
  ['latency p50/p95/p99', { measures: ['latency.p50', 'latency.p95', 'latency.p99'], filter: roots }],
  ['time to first token', { measures: ['ttft.p50', 'ttft.p95'] }],
  ['cost by model', { measures: ['cost'], groupBy: 'model', maxGroups: 8, filter: roots }],
  ['tokens by model', { measures: ['tokens.total'], groupBy: 'model', maxGroups: 8, filter: roots }],
  ['calls by op', { measures: ['count'], groupBy: 'op', maxGroups: 8 }],
  ['scores (mean)', { measures: [{ feedback: 'helpful', stat: 'mean' }] }],
];

/** One panel's `POST /v1/metrics/query` over [from, to) in UTC: its answer and how long it took. */
export async function queryPanel(url, panel, { from, to }) {
  const started = performance.now();
  const res = await fetch(url + routes.metricsQuery(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project: PROJECT, from, to, timeZone: 'UTC', bucket: 'auto', ...panel }),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`metrics query failed: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

/** The built server in this process on `storage` (SQLite in DIR/weft.db without one), without UI or scheduler. */
export function startDashboardServer(dir, storage, options = {}) {
  return startServer({
    port: 0,
    dbPath: join(dir, 'weft.db'),
    uiDir: false,
    monitoring: { scheduler: false },
    ...options,
    ...(storage ? { storage } : {}),
  });
}
