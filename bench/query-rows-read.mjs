// Rows read per statement of each query-bench case on chDB, from a load kept by
// `node bench/query.mjs --storage chdb --calls N --generate --keep DIR`:
//
//   node bench/query-rows-read.mjs DIR N [label filter]
//
// Runs each case's page once through the storage engine (built packages) to
// capture its statements, then runs each statement alone, warm, and takes the
// deltas of the engine's own counters (system.events: SelectedRows, the rows
// of the granules left after the indexes; SelectedMarks) and this process's
// CPU time (chDB runs in it). Prints a Markdown table for bench/RESULTS.md.
import { readFileSync } from 'node:fs';
import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { callQuery } from '../packages/protocol/dist/index.js';
import { ClickHouseStorage, parseStorageUrl } from '../packages/server/dist/index.js';
import { queryCases } from './lib/query-cases.mjs';

const require = createRequire(new URL('../packages/server/package.json', import.meta.url));
const { createClient } = require('@clickhouse/client');
const { createChdbConnection } = require('chdb/connection');
const [dir, callsArg, only] = process.argv.slice(2);
const total = Number(callsArg);
const db = `bench_keep_${total}`;
const { t0, traceRoot } = JSON.parse(readFileSync(`${dir}/${db}.json`, 'utf8'));
const storage = await ClickHouseStorage.open(parseStorageUrl(`chdb:${dir}?database=${db}`).options);
const client = createClient({ connection: createChdbConnection({ path: dir }), request_timeout: 600000 });
const rows = async (sql) => (await client.query({ query: sql, format: 'JSONEachRow' })).json();
const EVENTS = ['SelectedRows', 'SelectedMarks', 'SelectedParts', 'CompressedReadBufferBytes'];
const events = async () => {
  const r = await rows(
    `SELECT event, value FROM system.events WHERE event IN (${EVENTS.map((e) => `'${e}'`).join(',')})`,
  );
  return Object.fromEntries(EVENTS.map((e) => [e, Number(r.find((x) => x.event === e)?.value ?? 0)]));
};
const cases = [
  ...queryCases(total, t0),
  // The trace view's one light read of the whole trace (`Storage.traceCalls`: its columns, one statement).
  ['the 25,001-call trace, whole and light', { traceId: traceRoot, whole: true }],
];
let cap;
subscribe('weft:clickhouse:query', ({ sql }) => cap?.push(sql));
/** Which read of a page a statement is (see packages/server/src/storage/clickhouse/call-query.ts). */
const kind = (sql) =>
  sql.includes('system.settings')
    ? 'settings'
    : sql.includes('id IN (SELECT id') || sql.includes('call_trace')
      ? 'trace'
      : sql.includes('call_latency')
        ? 'latency walk'
        : sql.includes('max(version)')
          ? 'check'
          : sql.includes(' half, seq')
            ? 'calls'
            : sql.includes('call_id IN')
              ? 'feedback'
              : sql.includes('call_list')
                ? 'walk'
                : 'other';
const out = [
  '| Query | Statements (rows read / marks) | Rows read | CPU ms |',
  '| --- | --- | ---: | ---: |',
];
for (const [label, q] of cases) {
  if (only && !label.includes(only)) continue;
  cap = [];
  if (q.whole) await storage.traceCalls('big', q.traceId, 100_001);
  else await storage.queryCalls(callQuery.parse({ project: 'big', limit: 50, ...q }));
  const stmts = cap;
  cap = undefined;
  let sum = 0;
  let cpu = 0;
  const parts = [];
  for (const sql of stmts) {
    await rows(sql); // warm
    const before = await events();
    const c0 = process.cpuUsage();
    await rows(sql);
    const c = process.cpuUsage(c0);
    const after = await events();
    const read = after.SelectedRows - before.SelectedRows;
    sum += read;
    cpu += (c.user + c.system) / 1000;
    parts.push(
      `${kind(sql)} ${read.toLocaleString('en-US')} / ${after.SelectedMarks - before.SelectedMarks}`,
    );
  }
  out.push(`| ${label} | ${parts.join('; ')} | ${sum.toLocaleString('en-US')} | ${cpu.toFixed(0)} |`);
}
console.log(out.join('\n'));
await client.close();
await storage.close();
