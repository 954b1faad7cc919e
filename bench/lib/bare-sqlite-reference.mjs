// The bare reference of the ingest bench: how fast better-sqlite3 alone
// stores the same call rows on this machine, in the same run, so Weft's
// native and OTLP rates read as a share of what the storage can do.
//
// The schema is Weft's own, read from a database the built server made:
// its `calls` table, then its secondary indexes on `calls`, then its FTS5
// table over the call texts. Each variant inserts the rows (time-ordered ids,
// pre-encoded like the records' blobs) in transactions of one batch each,
// with Weft's pragmas (WAL, synchronous=NORMAL, 64 MiB cache, temp in memory).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeMsgpack } from '@weft/protocol';
import Database from 'better-sqlite3';

const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'cache_size = -65536',
  'wal_autocheckpoint = 16384',
  'temp_store = MEMORY',
];

/** Weft's `calls` table, its secondary indexes and its FTS5 table, as SQL read from a fresh server database. */
async function weftSchema(serverEntry) {
  const { SqliteStorage } = await import(serverEntry.href);
  const dir = await mkdtemp(join(tmpdir(), 'weft-bare-schema-'));
  try {
    const path = join(dir, 'weft.db');
    await new SqliteStorage({ path }).close();
    const db = new Database(path, { readonly: true });
    const sql = (where) =>
      db.prepare(`SELECT sql FROM sqlite_master WHERE ${where} ORDER BY name`).pluck().all();
    const schema = {
      table: sql("type = 'table' AND name = 'calls'")[0],
      indexes: sql("type = 'index' AND tbl_name = 'calls' AND sql IS NOT NULL"),
      fts: sql("type = 'table' AND name = 'calls_fts'")[0],
    };
    db.close();
    return schema;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A `calls` row of a record (from the bench's makeRecord), its blobs encoded as Weft stores them. */
function rowOf(project, record) {
  return {
    project,
    id: record.id,
    trace_id: record.traceId,
    parent_id: record.parentId,
    op_name: record.opName,
    op_plain: 'chat',
    display_name: record.displayName,
    started_at: record.startedAt,
    ended_at: record.endedAt,
    inputs: encodeMsgpack(record.inputs),
    output: encodeMsgpack(record.output),
    summary: encodeMsgpack(record.summary),
    attributes: encodeMsgpack(record.attributes),
    status: 'success',
    search_inputs: record.inputs.messages[0].content,
    search_output: record.output.content,
  };
}

const COLUMNS = [
  'project',
  'id',
  'has_start',
  'has_end',
  'trace_id',
  'parent_id',
  'op_name',
  'op_plain',
  'display_name',
  'started_at',
  'ended_at',
  'inputs',
  'output',
  'summary',
  'attributes',
  'status',
  'search_inputs',
  'search_output',
];

/**
 * Rows per second for each variant: no secondary index, Weft's secondary
 * indexes on `calls`, and those plus Weft's FTS5 index fed with each row.
 * `records` are the bench's 1 KB records (already time-ordered), stored in
 * transactions of `batchSize` rows.
 */
export async function bareSqliteReference({ serverEntry, records, batchSize, project = 'bench' }) {
  const schema = await weftSchema(serverEntry);
  const rows = records.map((record) => rowOf(project, record));
  const variants = [
    { label: 'no secondary index', indexes: [], fts: false },
    { label: `Weft's ${schema.indexes.length} secondary indexes`, indexes: schema.indexes, fts: false },
    { label: `Weft's ${schema.indexes.length} secondary indexes + FTS5`, indexes: schema.indexes, fts: true },
  ];
  const results = [];
  for (const variant of variants) {
    const dir = await mkdtemp(join(tmpdir(), 'weft-bare-'));
    try {
      const db = new Database(join(dir, 'bare.db'));
      for (const pragma of PRAGMAS) db.pragma(pragma);
      db.exec(schema.table);
      for (const index of variant.indexes) db.exec(index);
      if (variant.fts) db.exec(schema.fts);
      const insert = db.prepare(
        `INSERT INTO calls (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => (c.startsWith('has_') ? '1' : `@${c}`)).join(', ')})`,
      );
      const index = variant.fts
        ? db.prepare(
            'INSERT INTO calls_fts (rowid, display_name, op_plain, search_inputs, search_output) VALUES (?, ?, ?, ?, ?)',
          )
        : undefined;
      const write = db.transaction((batch) => {
        for (const row of batch) {
          const { lastInsertRowid } = insert.run(row);
          index?.run(lastInsertRowid, row.display_name, row.op_plain, row.search_inputs, row.search_output);
        }
      });
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < rows.length; i += batchSize) write(rows.slice(i, i + batchSize));
      db.pragma('wal_checkpoint(TRUNCATE)');
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      db.close();
      results.push({
        label: variant.label,
        rows: rows.length,
        rowsPerSec: Math.round(rows.length / (ms / 1000)),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        rowsPerCpuSec: Math.round(rows.length / ((cpu.user + cpu.system) / 1e6)),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return results;
}
