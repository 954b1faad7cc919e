#!/usr/bin/env node
// SQLite ingest below HTTP, two builds A/B in one process: CPU per record of
// `SqliteStorage.ingestCalls` for the ingest bench's native 1 KB records
// (bench/lib/ingest-bodies.mjs, as the route passes them after decoding),
// `--in-flight` batches submitted in the same turn (one group commit, as
// under concurrent requests), each round on a fresh database, the builds
// alternating round by round. Process CPU (user + system) per record, so
// compare the two columns of one run, with the load it printed.
//
//   cp -r packages/server/dist node_modules/.weft-bench-base   (the "before" build)
//   cd packages/server && npx tsup && cd ../..                   (the "after" build)
//   node bench/ingest-storage-ab.mjs --base node_modules/.weft-bench-base/index.js [--records 20000] [--rounds 7]
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { makeRecord } from './lib/ingest-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    records: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '7' },
    batch: { type: 'string', default: '500' },
    'in-flight': { type: 'string', default: '4' },
  },
});
if (args.base === undefined) throw new Error('--base: the index.js of the build to compare with');
const records = Number(args.records);
const batchSize = Number(args.batch);
const inFlight = Number(args['in-flight']);

const builds = {
  base: await import(pathToFileURL(resolve(args.base)).href),
  this: await import(new URL('../packages/server/dist/index.js', import.meta.url).href),
};

/** The batches of one round: fresh ids, so every round inserts what it stores. */
function batchesOf() {
  const batches = [];
  let traceId = uuidv7();
  for (let i = 0; i < records; i += batchSize) {
    const items = [];
    for (let j = i; j < Math.min(records, i + batchSize); j++) {
      if (j % 10 === 0) traceId = uuidv7();
      items.push(makeRecord(j, 1024, traceId));
    }
    batches.push(items);
  }
  return batches;
}

async function round({ SqliteStorage }) {
  const batches = batchesOf();
  const dir = await mkdtemp(join(tmpdir(), 'weft-storage-ab-'));
  try {
    const storage = new SqliteStorage({ path: join(dir, 'weft.db') });
    const before = process.cpuUsage();
    for (let i = 0; i < batches.length; i += inFlight) {
      await Promise.all(batches.slice(i, i + inFlight).map((items) => storage.ingestCalls('bench', items)));
    }
    const cpu = process.cpuUsage(before);
    await storage.close();
    return (cpu.user + cpu.system) / records;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const loadBefore = loadavg()[0];
const results = { base: [], this: [] };
await round(builds.base);
await round(builds.this);
for (let r = 0; r < Number(args.rounds); r++) {
  for (const name of r % 2 === 0 ? ['base', 'this'] : ['this', 'base']) {
    results[name].push(await round(builds[name]));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(
  `ingest-storage-ab: ${records} native 1 KB records per round, batches of ${batchSize}, ${inFlight} in flight, load ${loadBefore.toFixed(1)} before / ${loadavg()[0].toFixed(1)} after\n`,
);
for (const [name, xs] of Object.entries(results)) {
  process.stdout.write(
    `${name.padEnd(5)} CPU µs per record: median ${median(xs).toFixed(1)}, min ${Math.min(...xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(' / ')})\n`,
  );
}
process.stdout.write(`this / base (median): ${(median(results.this) / median(results.base)).toFixed(3)}\n`);
