#!/usr/bin/env node
// The calls row's statement shapes on SQLite: CPU per row of Weft's upsert
// (ON CONFLICT DO UPDATE, 25 columns, attribute terms through jsonb()), the
// same as a plain INSERT and as INSERT … ON CONFLICT DO NOTHING, and the bare
// reference's 18-column INSERT (bench/lib/bare-sqlite-reference.mjs), each on
// a fresh copy of a database the built server made (its 7 secondary indexes;
// FTS and the other ingest statements left out). Rounds alternate, in one process.
//
//   cd packages/server && npx tsup && cd ../.. && node bench/ingest-upsert-shapes.mjs [--records 20000]
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { copyFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { encodeMsgpack } from '@weft/protocol';
import { v7 as uuidv7 } from 'uuid';
import { makeRecord } from './lib/ingest-bodies.mjs';
const { SqliteStorage } = await import(new URL('../packages/server/dist/index.js', import.meta.url).href);
const { values: args } = parseArgs({ options: { records: { type: 'string', default: '20000' } } });
const base = join(tmpdir(), `weft-shapes-base-${process.pid}.db`);
const path = join(tmpdir(), `weft-shapes-${process.pid}.db`);
await new SqliteStorage({ path: base }).close();
const N = Number(args.records);
const B = 500;
let trace = uuidv7();
const recs = [];
for (let j = 0; j < N; j++) {
  if (j % 10 === 0) trace = uuidv7();
  recs.push(makeRecord(j, 1024, trace));
}
const COLS = `project, id, has_start, has_end, trace_id, parent_id, op_name, op_plain, display_name,
  started_at, inputs, attributes, ended_at, output, exception, summary, latency_given, status,
  session_id, search_inputs, attribute_terms, search_output, total_tokens, cost_usd, span_usage`;
const rowOf = (r) => [
  'bench',
  r.id,
  1,
  1,
  r.traceId,
  r.parentId,
  r.opName,
  'chat',
  r.displayName,
  r.startedAt,
  encodeMsgpack(r.inputs),
  encodeMsgpack(r.attributes),
  r.endedAt,
  encodeMsgpack(r.output),
  null,
  encodeMsgpack(r.summary),
  r.summary.latencyMs,
  'success',
  null,
  r.inputs.messages[0].content,
  JSON.stringify([
    ['env', 's', 'bench'],
    ['run', 'n', 1],
  ]),
  r.output.content,
  200,
  null,
  null,
];
const rows = recs.map(rowOf);
const upsertSrc = readFileSync(
  new URL('../packages/server/src/storage/sqlite/call-store.ts', import.meta.url),
  'utf8',
).match(/UPSERT = `([\s\S]*?)`;/)[1];
const variants = {
  upsert: upsertSrc,
  upsertNoJsonb: upsertSrc.replace('jsonb(?)', '?'),
  insert: `INSERT INTO calls (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, jsonb(?), ?, ?, ?, ?)`,
  insertNothing: `INSERT INTO calls (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, jsonb(?), ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  bare18: `INSERT INTO calls (project, id, has_start, has_end, trace_id, parent_id, op_name, op_plain, display_name, started_at, ended_at, inputs, output, summary, attributes, status, search_inputs, search_output) VALUES (?, ?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
};
const bareRows = rows.map((r) => [
  r[0],
  r[1],
  r[4],
  r[5],
  r[6],
  r[7],
  r[8],
  r[9],
  r[12],
  r[10],
  r[13],
  r[15],
  r[11],
  r[17],
  r[19],
  r[21],
]);
const res = {};
for (let round = 0; round < 3; round++) {
  for (const [name, sql] of Object.entries(variants)) {
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
    copyFileSync(base, path);
    const db = new Database(path);
    for (const p of [
      'journal_mode = WAL',
      'synchronous = NORMAL',
      'cache_size = -65536',
      'wal_autocheckpoint = 16384',
      'temp_store = MEMORY',
    ])
      db.pragma(p);
    const st = db.prepare(sql);
    const data = name === 'bare18' ? bareRows : rows;
    const w = db.transaction((b) => {
      for (const r of b) st.run(r);
    });
    const c0 = process.cpuUsage();
    for (let i = 0; i < data.length; i += B) w(data.slice(i, i + B));
    const c = process.cpuUsage(c0);
    db.close();
    res[name] = [...(res[name] ?? []), ((c.user + c.system) / N).toFixed(1)];
  }
}
for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
rmSync(base, { force: true });
console.log('load', os.loadavg()[0].toFixed(1), 'CPU µs per row (3 rounds):');
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(14), v.join(' / '));
