// Rows read per statement of each dashboard panel on chDB, from a load kept by
// `node bench/dashboard.mjs --storage chdb --calls N --generate --keep DIR`:
//
//   node bench/dashboard-rows-read.mjs DIR
//
// Runs each panel once through the built server (over HTTP) to capture its
// statements, then runs each statement alone, warm, 5 times, and takes the
// deltas of the engine's own counters (system.events: SelectedRows, the rows
// of the granules left after the indexes; SelectedMarks) and this process's
// CPU time (chDB runs in it), per run. Prints a Markdown table for
// bench/RESULTS.md; a trivial `SELECT 1` first, for chDB's fixed cost.
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY, PANELS, queryPanel, startDashboardServer } from './lib/dashboard-calls.mjs';
import { engineClient, storageTarget } from './lib/storage-target.mjs';

const [dir] = process.argv.slice(2);
const { to, total } = JSON.parse(readFileSync(join(dir, 'range.json'), 'utf8'));
const target = await storageTarget('chdb', { keep: join(dir, 'chdb') });
const where = target.fresh(dir, 'dash_keep');
const server = await startDashboardServer(dir, where.storage);
const engine = await engineClient(target);
const EVENTS = ['SelectedRows', 'SelectedMarks', 'SelectedBytes'];
const events = async () => {
  const r = await engine.rows(
    `SELECT event, value FROM system.events WHERE event IN (${EVENTS.map((e) => `'${e}'`).join(',')})`,
  );
  return Object.fromEntries(EVENTS.map((e) => [e, Number(r.find((x) => x.event === e)?.value ?? 0)]));
};
const RUNS = 5;
/** Rows read, marks, bytes, rows returned and CPU ms of `sql` alone (warm, mean of RUNS). */
const measure = async (sql) => {
  await engine.rows(sql);
  const before = await events();
  const c0 = process.cpuUsage();
  let returned = 0;
  for (let i = 0; i < RUNS; i++) returned = (await engine.rows(sql)).length;
  const c = process.cpuUsage(c0);
  const after = await events();
  const per = (e) => (after[e] - before[e]) / RUNS;
  return {
    rows: per('SelectedRows'),
    marks: per('SelectedMarks'),
    bytes: per('SelectedBytes'),
    returned,
    cpu: (c.user + c.system) / 1000 / RUNS,
  };
};
let captured;
subscribe('weft:clickhouse:query', ({ sql }) => captured?.push(sql));
const one = await measure('SELECT 1');
const out = [
  `\`SELECT 1\`: ${one.cpu.toFixed(1)} ms CPU.`,
  '',
  '| Panel | Statements (level: rows read / marks → rows returned) | Rows read | MB read | CPU ms |',
  '| --- | --- | ---: | ---: | ---: |',
];
let totalCpu = 0;
for (const [name, panel] of PANELS) {
  captured = [];
  await queryPanel(server.url, panel, { from: to - 30 * DAY, to });
  const statements = captured.filter((sql) => sql.includes('_rollups'));
  captured = undefined;
  let rows = 0;
  let bytes = 0;
  let cpu = 0;
  const parts = [];
  for (const sql of statements) {
    const m = await measure(sql);
    rows += m.rows;
    bytes += m.bytes;
    cpu += m.cpu;
    const level = sql.match(/level = '(\w)'/)?.[1] ?? '?';
    parts.push(
      `${level}: ${m.rows.toLocaleString('en-US')} / ${m.marks} → ${m.returned.toLocaleString('en-US')}`,
    );
  }
  totalCpu += cpu;
  out.push(
    `| ${name} | ${parts.join('; ')} | ${rows.toLocaleString('en-US')} | ${(bytes / 1e6).toFixed(1)} | ${cpu.toFixed(0)} |`,
  );
}
out.push(`| **all eight, one after another** | | | | ${totalCpu.toFixed(0)} |`);
console.log(`${total.toLocaleString('en-US')} calls (${dir})\n\n${out.join('\n')}`);
await engine.close();
await server.close();
