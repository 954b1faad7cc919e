#!/usr/bin/env node
// Where the SQL time of SQLite ingest goes, statement by statement: the built
// server in this process (port 0, a fresh SQLite file) takes the ingest
// bench's bodies (bench/lib/ingest-bodies.mjs) over HTTP, and every
// better-sqlite3 statement it runs is counted and timed (wall time inside
// run/get/all, so compare shares within one run, not across runs).
//
//   cd packages/server && npx tsup && cd ../.. && node bench/ingest-sql.mjs
//   node bench/ingest-sql.mjs --format native|otlp-proto|otlp-json --records 10000 [--top 20] [--connections 4]
//
// Prints, per format: statements run per record, SQL µs per record, the
// process's CPU µs per record (server and this client together: bodies are
// encoded before timing, sending them is cheap), and the statements by time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { nativeBodies, otlpBodies } from './lib/ingest-bodies.mjs';

const { values: args } = parseArgs({
  options: {
    format: { type: 'string', multiple: true },
    records: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '500' },
    top: { type: 'string', default: '15' },
    /** Requests in flight, as in bench/ingest.mjs. */
    connections: { type: 'string', default: '4' },
  },
});
const formats = args.format ?? ['native', 'otlp-proto', 'otlp-json'];
const records = Number(args.records);
const batchSize = Number(args.batch);
const connections = Number(args.connections);

// Every statement of every connection in this process (the server's are the only ones).
const Statement = new Database(':memory:').prepare('SELECT 1').constructor;
/** @type {Map<string, { calls: number, ns: bigint }>} */
let bySql = new Map();
for (const method of ['run', 'get', 'all']) {
  const original = Statement.prototype[method];
  Statement.prototype[method] = function timed(...params) {
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, params);
    } finally {
      const sql = this.source.replace(/\s+/g, ' ').trim().slice(0, 120);
      const entry = bySql.get(sql) ?? { calls: 0, ns: 0n };
      entry.calls++;
      entry.ns += process.hrtime.bigint() - started;
      bySql.set(sql, entry);
    }
  };
}

const { startServer } = await import(new URL('../packages/server/dist/index.js', import.meta.url).href);
const os = await import('node:os');
process.stdout.write(
  `ingest-sql: ${records} records per format, batches of ${batchSize}, load ${os.loadavg()[0].toFixed(1)}\n`,
);

for (const format of formats) {
  const dir = await mkdtemp(join(tmpdir(), 'weft-bench-ingest-sql-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dbPath: join(dir, 'weft.db'),
    uiDir: false,
  });
  const load =
    format === 'native'
      ? nativeBodies({ project: 'bench', records, recordBytes: 1024, batchSize })
      : otlpBodies({ format, project: 'bench', records, recordBytes: 1024, batchSize });
  const pool = new Pool(server.url, { connections });
  bySql = new Map();
  const cpuBefore = process.cpuUsage();
  // As bench/ingest.mjs sends them: `connections` requests in flight.
  let cursor = 0;
  const send = async () => {
    while (cursor < load.bodies.length) {
      const { body } = load.bodies[cursor++];
      const res = await pool.request({
        path: load.path,
        method: 'POST',
        body,
        headers: { 'content-type': load.contentType },
      });
      const answer = await res.body.text();
      if (res.statusCode !== 200)
        throw new Error(`HTTP ${res.statusCode} from ${load.path}: ${answer.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, send));
  const cpu = process.cpuUsage(cpuBefore);
  const measured = bySql;
  bySql = new Map();
  await pool.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });

  let statements = 0;
  let ns = 0n;
  for (const entry of measured.values()) {
    statements += entry.calls;
    ns += entry.ns;
  }
  const perRecord = (value) => (value / records).toFixed(2);
  process.stdout.write(
    `\n${format}: ${perRecord(statements)} statements per record, SQL ${perRecord(Number(ns) / 1000)} µs per record, process CPU ${perRecord(cpu.user + cpu.system)} µs per record\n`,
  );
  process.stdout.write(
    '| SQL µs per record | Share of SQL | Runs | Statement |\n| ---: | ---: | ---: | --- |\n',
  );
  const sorted = [...measured].sort((a, b) => Number(b[1].ns - a[1].ns)).slice(0, Number(args.top));
  for (const [sql, entry] of sorted) {
    const share = `${((Number(entry.ns) / Number(ns)) * 100).toFixed(0)}%`;
    process.stdout.write(
      `| ${perRecord(Number(entry.ns) / 1000)} | ${share} | ${entry.calls} | \`${sql.replaceAll('|', '\\|')}\` |\n`,
    );
  }
}
