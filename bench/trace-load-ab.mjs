// The trace view's load, alternated in one process (an A/B that holds on a busy machine), on a load kept by
// `node bench/query.mjs --storage chdb --calls N --keep DIR`:
//
//   node bench/trace-load-ab.mjs [DIR=/tmp/ch10m] [N=10000000] [RUNS=11] [BEFORE]
//
// `calls`: GET …/calls, parsed (the route's first shape); `columns`: GET …/calls?layout=columns, parsed and turned
// back into calls with callsOfTraceColumns (what the UI does), the columns filled by the engine
// (`Storage.traceColumns`); `columns-via-calls`: the same route and answer, the columns made by `traceColumnsOf` from
// `Storage.traceCalls` (how the route made them before the engine did). Two apps over ONE opened storage. Per load:
// wall time and this process's CPU (server, client and chDB all run in it). Uses the BUILT packages.
// BEFORE (optional): another build of @weft/server (its `dist/index.js`, copied e.g. to node_modules/.server-before/ so
// it resolves the same dependencies): adds `columns-before`, the same route over a storage that build opens on the same database
// — an A/B of two builds in one process. (That build must not be older than the database's schema.)
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callsOfTraceColumns, routes, traceColumnsOf } from '../packages/protocol/dist/index.js';
import { createApp, openStorage, parseStorageUrl } from '../packages/server/dist/index.js';

const [dir = '/tmp/ch10m', total = '10000000', runs = '11', before] = process.argv.slice(2);
const name = `bench_keep_${total}`;
const { traceRoot } = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8'));
const storage = await openStorage(parseStorageUrl(`chdb:${dir}?database=${name}`));
// The storage, its traceColumns made as the route made them before `Storage.traceColumns`.
const viaCalls = new Proxy(storage, {
  get(target, key) {
    if (key === 'traceColumns')
      return async (project, traceId, limit) => {
        const calls = await target.traceCalls(project, traceId, limit + 1);
        return traceColumnsOf(project, traceId, calls.slice(0, limit), calls.length > limit);
      };
    const value = target[key];
    return typeof value === 'function' ? value.bind(target) : value;
  },
});
const listening = async (over) => {
  const app = createApp({ storage: over, uiDir: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${app.server.address().port}` };
};
const direct = await listening(storage);
const legacy = await listening(viaCalls);
const earlier =
  before === undefined
    ? undefined
    : await (async () => {
        const build = await import(pathToFileURL(resolve(before)).href);
        const opened = await build.openStorage(build.parseStorageUrl(`chdb:${dir}?database=${name}`));
        const app = build.createApp({ storage: opened, uiDir: false });
        await app.listen({ host: '127.0.0.1', port: 0 });
        return { app, storage: opened, url: `http://127.0.0.1:${app.server.address().port}` };
      })();
const read = async (url, path) => JSON.parse(await (await fetch(url + path)).text());
const cases = {
  calls: async () => (await read(direct.url, routes.traceCalls('big', traceRoot))).calls,
  columns: async () => callsOfTraceColumns(await read(direct.url, routes.traceColumns('big', traceRoot))),
  'columns-via-calls': async () =>
    callsOfTraceColumns(await read(legacy.url, routes.traceColumns('big', traceRoot))),
  ...(earlier === undefined
    ? {}
    : {
        'columns-before': async () =>
          callsOfTraceColumns(await read(earlier.url, routes.traceColumns('big', traceRoot))),
      }),
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
await direct.app.close();
await legacy.app.close();
if (earlier !== undefined) {
  await earlier.app.close();
  await earlier.storage.close();
}
await storage.close();
