#!/usr/bin/env node
// What random ids cost SQLite itself: the ingest bench's bare better-sqlite3
// reference (bench/lib/bare-sqlite-reference.mjs: Weft's `calls` table, its
// secondary indexes, FTS5) run on the native 1 KB records as they are
// (time-ordered UUIDv7 ids) and on the same records with OTLP-shaped ids (a
// random W3C trace id per trace of 10; each call id the trace id's first 8
// bytes and a random span id, as `callIdOfSpan` makes them), alternating.
//
//   cd packages/server && npx tsup && cd ../.. && node bench/bare-sqlite-ids.mjs
//   node bench/bare-sqlite-ids.mjs --records 30000 --rounds 2
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { bareSqliteReference } from './lib/bare-sqlite-reference.mjs';
import { makeRecord } from './lib/ingest-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '2' },
    batch: { type: 'string', default: '500' },
  },
});
const records = Number(args.records);
const serverEntry = new URL('../packages/server/dist/index.js', import.meta.url);
const uuid = (hex) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

const timeOrdered = [];
const otlpShaped = [];
let traceId = uuidv7();
let otelTrace = '';
let root = '';
for (let j = 0; j < records; j++) {
  if (j % 10 === 0) {
    traceId = uuidv7();
    otelTrace = randomBytes(16).toString('hex');
  }
  timeOrdered.push(makeRecord(j, 1024, traceId));
  const record = makeRecord(j, 1024, uuid(otelTrace));
  record.id = uuid(otelTrace.slice(0, 16) + randomBytes(8).toString('hex'));
  if (j % 10 === 0) root = record.id;
  record.parentId = j % 10 === 0 ? null : root;
  otlpShaped.push(record);
}

process.stdout.write(`bare-sqlite-ids: ${records} rows per variant, batches of ${args.batch}\n`);
for (let round = 0; round < Number(args.rounds); round++) {
  for (const [label, rows] of [
    ['time-ordered ids', timeOrdered],
    ['OTLP-shaped ids', otlpShaped],
  ]) {
    const load = os.loadavg()[0].toFixed(1);
    const results = await bareSqliteReference({ serverEntry, records: rows, batchSize: Number(args.batch) });
    const cells = results.map((r) => `${r.label}: ${r.rowsPerCpuSec.toLocaleString('en-US')} rows per CPU-s`);
    process.stdout.write(`round ${round + 1}, ${label}, load ${load}: ${cells.join(' | ')}\n`);
  }
}
