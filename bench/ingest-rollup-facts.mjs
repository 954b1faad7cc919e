#!/usr/bin/env node
// Rollup facts on SQLite: CPU per call of writing a batch's rollup_facts rows
// (the table of rollup-schema.ts) one statement run per call, against one
// statement per batch over a JSON array of them (json_each, as before commit
// "rollup facts: one statement run per call"). Rounds alternate, in one process.
//
//   node bench/ingest-rollup-facts.mjs [--calls 20000]
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import os from 'node:os';
const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '20000' } } });
const N = Number(args.calls);
const B = 500;
const path = join(tmpdir(), `weft-rollup-facts-${process.pid}.db`);
const start = (i) => ({
  startedAt: 1764000000000 + i,
  root: i % 10 === 0,
  op: 'chat',
  version: null,
  user: null,
  session: null,
  tags: [],
});
const end = (i) => ({
  endedAt: 1764000000000 + i + 500,
  status: 'success',
  latencyGivenMs: 500,
  ttftMs: null,
  models: [
    { model: 'gpt-bench', input: 120, output: 80, cached: 0, reasoning: 0, total: 200, costNano: null },
  ],
  costNano: null,
});
const ids = Array.from(
  { length: N },
  (_, i) => `0199${String(i).padStart(8, '0')}-aaaa-7bbb-8ccc-dddddddddddd`,
);
const schema = `CREATE TABLE rollup_facts (project TEXT NOT NULL, id TEXT NOT NULL, start TEXT, end TEXT, feedback_waiting INTEGER NOT NULL DEFAULT 0, completed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (project, id)) WITHOUT ROWID`;
const variants = {
  jsonEach(db) {
    const st = db.prepare(`INSERT INTO rollup_facts (project, id, start, end, feedback_waiting, completed)
      SELECT @project, f.value ->> 0, nullif(f.value -> 1, 'null'), nullif(f.value -> 2, 'null'), f.value ->> 3, f.value ->> 4
      FROM json_each(@facts) f WHERE true
      ON CONFLICT (project, id) DO UPDATE SET start = excluded.start, end = excluded.end, feedback_waiting = excluded.feedback_waiting, completed = excluded.completed`);
    return (lo, hi) => {
      const parts = [];
      for (let i = lo; i < hi; i++)
        parts.push(`[${JSON.stringify(ids[i])},${JSON.stringify(start(i))},${JSON.stringify(end(i))},0,1]`);
      st.run({ project: 'bench', facts: `[${parts.join(',')}]` });
    };
  },
  perRow(db) {
    const st =
      db.prepare(`INSERT INTO rollup_facts (project, id, start, end, feedback_waiting, completed) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (project, id) DO UPDATE SET start = excluded.start, end = excluded.end, feedback_waiting = excluded.feedback_waiting, completed = excluded.completed`);
    return (lo, hi) => {
      for (let i = lo; i < hi; i++)
        st.run('bench', ids[i], JSON.stringify(start(i)), JSON.stringify(end(i)), 0, 1);
    };
  },
  jsonEachStrings(db) {
    const st = db.prepare(`INSERT INTO rollup_facts (project, id, start, end, feedback_waiting, completed)
      SELECT @project, f.value ->> 0, f.value ->> 1, f.value ->> 2, f.value ->> 3, f.value ->> 4
      FROM json_each(@facts) f WHERE true
      ON CONFLICT (project, id) DO UPDATE SET start = excluded.start, end = excluded.end, feedback_waiting = excluded.feedback_waiting, completed = excluded.completed`);
    return (lo, hi) => {
      const rows = [];
      for (let i = lo; i < hi; i++)
        rows.push([ids[i], JSON.stringify(start(i)), JSON.stringify(end(i)), 0, 1]);
      st.run({ project: 'bench', facts: JSON.stringify(rows) });
    };
  },
};
const res = {};
for (let round = 0; round < 4; round++)
  for (const [name, make] of Object.entries(variants)) {
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
    const db = new Database(path);
    for (const p of [
      'journal_mode = WAL',
      'synchronous = NORMAL',
      'cache_size = -65536',
      'temp_store = MEMORY',
    ])
      db.pragma(p);
    db.exec(schema);
    const w = db.transaction(make(db));
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i += B) w(i, i + B);
    const c = process.cpuUsage(c0);
    db.close();
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
    res[name] = [...(res[name] ?? []), ((c.user + c.system) / N).toFixed(1)];
  }
console.log('load', os.loadavg()[0].toFixed(1), 'CPU µs per call (4 rounds, JS building included):');
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(16), v.join(' / '));
