// The trace view's load, both layouts of the trace route alternated in one process (an A/B that holds on a busy
// machine), on a load kept by `node bench/query.mjs --storage chdb --calls N --keep DIR`:
//
//   node bench/trace-load-ab.mjs [DIR=/tmp/ch10m] [N=10000000] [RUNS=11]
//
// `calls`: GET …/calls, parsed (the route's first shape); `columns`: GET …/calls?layout=columns, parsed and turned
// back into calls with callsOfTraceColumns (what the UI does). Per load: wall time and this process's CPU (server,
// client and chDB all run in it). Uses the BUILT packages.
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { callsOfTraceColumns, routes } from '../packages/protocol/dist/index.js';
import { startServer } from '../packages/server/dist/index.js';

const [dir = '/tmp/ch10m', total = '10000000', runs = '11'] = process.argv.slice(2);
const name = `bench_keep_${total}`;
const { traceRoot } = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8'));
const scratch = await mkdtemp(join(tmpdir(), 'weft-trace-ab-'));
const server = await startServer({
  port: 0,
  dbPath: join(scratch, 'weft.db'),
  uiDir: false,
  storage: `chdb:${dir}?database=${name}`,
});
const read = async (path) => JSON.parse(await (await fetch(server.url + path)).text());
const cases = {
  calls: async () => (await read(routes.traceCalls('big', traceRoot))).calls,
  columns: async () => callsOfTraceColumns(await read(routes.traceColumns('big', traceRoot))),
};
const measured = Object.fromEntries(Object.keys(cases).map((k) => [k, { wall: [], cpu: [] }]));
const loadBefore = loadavg()[0];
// The first round warms both up and is not counted.
for (let i = 0; i <= Number(runs); i++) {
  for (const [label, load] of Object.entries(cases)) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const calls = await load();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (!Array.isArray(calls) || calls.length === 0) throw new Error(`${label}: no calls`);
    if (i > 0) {
      measured[label].wall.push(wall);
      measured[label].cpu.push((used.user + used.system) / 1000);
    }
  }
}
const at = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];
for (const [label, { wall, cpu }] of Object.entries(measured)) {
  console.log(
    `${label}: wall median ${at(wall, 0.5).toFixed(0)} ms, p95 ${at(wall, 0.95).toFixed(0)} ms; CPU median ${at(cpu, 0.5).toFixed(0)} ms`,
  );
}
console.log(`1-minute load average ${loadBefore.toFixed(1)} before / ${loadavg()[0].toFixed(1)} after`);
await server.close();
await rm(scratch, { recursive: true, force: true });
