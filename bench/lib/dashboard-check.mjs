// The dashboard bench's check of `--generate`: on a small set of calls, the
// rollups the generator writes equal those real ingest (HTTP) writes, key by
// key, and the metrics API's answers over them equal a recomputation from
// the calls themselves.
import { encodeMsgpack, routes } from '../../packages/protocol/dist/index.js';
import {
  compareRollups,
  DAY,
  dashboardItems,
  generateRollups,
  PANELS,
  PROJECT,
  queryPanel,
  startDashboardServer,
} from './dashboard-calls.mjs';

/** Calls in the check's small set. */
const SAMPLE = 3_000;

/**
 * Checks the generator on SAMPLE calls over the same 30 days: loaded over
 * HTTP into one database and generated into another, their rollups equal
 * key by key; the API's answers over the generated ones equal a
 * recomputation. Throws on a difference; returns what it compared.
 */
export async function checkGenerator({ target, engine, dir, to }) {
  const from = to - 30 * DAY;
  const [ingested, made] = [target.fresh(dir), target.fresh(dir)];
  let server = await startDashboardServer(dir, ingested.storage);
  for (let n = 0; n < SAMPLE; n += 1_000) {
    const items = [];
    for (let i = n; i < Math.min(n + 1_000, SAMPLE); i++)
      items.push(...dashboardItems(i, { total: SAMPLE, to }));
    const res = await fetch(server.url + routes.callBatch(), {
      method: 'POST',
      headers: { 'content-type': 'application/msgpack' },
      body: encodeMsgpack({ project: PROJECT, items }),
    });
    if (res.status !== 200) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
  }
  await server.close();
  // A server opens the database first: it makes the tables.
  await (await startDashboardServer(dir, made.storage)).close();
  await generateRollups(engine, made.database, { total: SAMPLE, to, chunk: 1_000 });
  const rollups = await compareRollups(engine, ingested.database, made.database);
  for (const [table, c] of Object.entries(rollups))
    if (c.onlyA !== 0 || c.onlyB !== 0 || c.rows === 0)
      throw new Error(`generated ${table} rollups differ from ingested ones: ${JSON.stringify(c)}`);
  server = await startDashboardServer(dir, made.storage);
  const answers = {};
  for (const [name, panel] of PANELS)
    answers[name] = (await queryPanel(server.url, panel, { from, to })).body;
  await server.close();
  const expected = recomputedAnswers({ total: SAMPLE, to, starts: answers.traces.buckets });
  const differences = answerDifferences(expected, answers);
  if (differences.length > 0)
    throw new Error(`metrics over generated rollups differ from a recomputation: ${differences.join('; ')}`);
  for (const db of [ingested.database, made.database]) await engine.command(`DROP DATABASE ${db}`);
  return { calls: SAMPLE, rollups, panelsRecomputed: Object.keys(expected) };
}

/** The bucket (index into `starts`) holding `ms`. */
const bucketOf = (starts, ms) => {
  let i = 0;
  while (i + 1 < starts.length && starts[i + 1] <= ms) i++;
  return i;
};

/**
 * Per panel the answer recomputed from calls 0…total−1 (`null` where the
 * API answers nothing): count, error rate, calls by op, tokens by model and
 * the `helpful` mean, per bucket of `starts`. Percentiles and cost are left
 * out (a histogram's bound and the price table, not a sum of the calls).
 */
export function recomputedAnswers({ total, to, starts }) {
  const count = starts.map(() => 0);
  const errors = starts.map(() => 0);
  const byOp = new Map();
  const tokensByModel = new Map();
  const helpful = starts.map(() => ({ n: 0, sum: 0 }));
  const add = (map, key, i, value) => {
    if (!map.has(key))
      map.set(
        key,
        starts.map(() => 0),
      );
    map.get(key)[i] += value;
  };
  for (let n = 0; n < total; n++) {
    const [call, feedback] = dashboardItems(n, { total, to });
    const i = bucketOf(starts, call.startedAt);
    count[i]++;
    if (call.exception) errors[i]++;
    add(byOp, call.opName, i, 1);
    for (const [model, usage] of Object.entries(call.summary.usage))
      add(tokensByModel, model, i, usage.totalTokens);
    if (feedback) {
      helpful[i].n++;
      helpful[i].sum += feedback.value ? 1 : 0;
    }
  }
  const groups = (map) =>
    Object.fromEntries([...map].map(([k, v]) => [k, v.map((x) => (x === 0 ? null : x))]));
  return {
    traces: { null: count },
    'error rate': { null: count.map((c, i) => (c === 0 ? null : errors[i] / c)) },
    'calls by op': groups(byOp),
    'tokens by model': groups(tokensByModel),
    'scores (mean)': { null: helpful.map((h) => (h.n === 0 ? null : h.sum / h.n)) },
  };
}

/**
 * The panels whose answers differ from `expected` (relative 1e-9): names
 * and the first difference. `answers`: panel name → response body.
 */
export function answerDifferences(expected, answers) {
  const out = [];
  for (const [panel, groups] of Object.entries(expected)) {
    const body = answers[panel];
    if (body.source !== 'rollup') out.push(`${panel}: read ${body.source} calls, not rollups`);
    for (const [group, values] of Object.entries(groups)) {
      const series = body.series.find((s) => String(s.group) === group);
      if (series === undefined) {
        out.push(`${panel}: no series for ${group}`);
        continue;
      }
      const i = values.findIndex((v, j) => {
        const got = series.values[j];
        if (v === null || got === null) return (v === null) !== (got === null || got === 0);
        return Math.abs(got - v) > 1e-9 * Math.max(1, Math.abs(v));
      });
      if (i >= 0) out.push(`${panel} ${group} bucket ${i}: ${series.values[i]} instead of ${values[i]}`);
    }
  }
  return out;
}
