import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClickHouseStorage } from '../../src/index.js';
import { ClickHouseConnection, QUERY_CHANNEL } from '../../src/storage/clickhouse/clickhouse-connection.js';
import { migrations } from '../../src/storage/clickhouse/migrations.js';
import { freshDatabaseName } from '../support/test-storage.js';

const host = () => `http://${inject('clickhouseHttp')}`;

describe('ClickHouse schema', () => {
  let connection: ClickHouseConnection;
  beforeAll(() => {
    connection = new ClickHouseConnection({
      endpoint: { kind: 'http', hosts: [host()] },
      username: 'default',
      password: '',
      requestTimeoutMs: 30_000,
      retryAfterMs: 1_000,
      settings: {},
    });
  });
  afterAll(() => connection.close());

  it('is created once when several replicas start at the same moment, and reopening migrates nothing', async () => {
    const database = freshDatabaseName();
    const replicas = await Promise.all(
      Array.from({ length: 4 }, () => ClickHouseStorage.open({ hosts: [host()], database })),
    );
    const latest = migrations.at(-1)?.version;
    expect(replicas.map((r) => r.schemaVersion)).toEqual([latest, latest, latest, latest]);
    await Promise.all(replicas.map((r) => r.close()));
    const again = await ClickHouseStorage.open({ hosts: [host()], database });
    expect(again.schemaVersion).toBe(latest);
    await again.close();
    const versions = await connection.rows<{ version: number; name: string }>(
      `SELECT DISTINCT version, name FROM ${database}.weft_migrations ORDER BY version`,
    );
    expect(versions).toEqual(migrations.map(({ version, name }) => ({ version, name })));
    // Migration 2's ALTERs ran from four replicas at once: each column once.
    const added = await connection.rows<{ name: string }>(
      `SELECT name FROM system.columns WHERE database = '${database}' AND table = 'calls' AND name IN ('session_id', 'attr_terms', 'search_start', 'search_end', 'total_tokens', 'cost_usd') ORDER BY name`,
    );
    expect(added.map((c) => c.name)).toEqual([
      'attr_terms',
      'cost_usd',
      'search_end',
      'search_start',
      'session_id',
      'total_tokens',
    ]);
    const tables = await connection.rows<{ name: string }>(
      `SELECT name FROM system.tables WHERE database = '${database}' ORDER BY name`,
    );
    expect(tables.map((t) => t.name)).toEqual([
      'call_completions',
      'call_list',
      'call_rollup_changes',
      'call_rollups',
      'call_rollups_mv',
      'call_trace',
      'call_values',
      'calls',
      'content_refs',
      'feedback',
      'feedback_rollup_changes',
      'feedback_rollups',
      'feedback_rollups_mv',
      'files',
      'monitor_documents',
      'monitor_log',
      'object_labels',
      'objects',
      'rollup_facts',
      'table_order',
      'table_rows',
      'tables',
      'weft_migrations',
    ]);
  });

  it('reads the same calls before and after background merges', async () => {
    const database = freshDatabaseName();
    const storage = await ClickHouseStorage.open({ hosts: [host()], database });
    const id = '0190a5f0-0000-7000-8000-000000000001';
    // Four inserts, four parts: an end before its start, then both repeated.
    const start = {
      type: 'start',
      id,
      traceId: id,
      parentId: null,
      opName: 'op',
      startedAt: 5,
      inputs: { a: 1 },
    } as const;
    const end = { type: 'end', id, endedAt: 9, output: 'done' } as const;
    for (const item of [end, start, start, end]) await storage.ingestCalls('p', [item]);
    const before = await storage.readCall('p', id);
    await connection.commandOnEveryHost(`OPTIMIZE TABLE ${database}.calls FINAL`);
    const after = await storage.readCall('p', id);
    expect(before).toMatchObject({
      startedAt: 5,
      endedAt: 9,
      inputs: { a: 1 },
      output: 'done',
      status: 'success',
    });
    expect(after).toEqual(before);
    const rows = await connection.rows<{ n: string }>(`SELECT count() AS n FROM ${database}.calls`);
    expect(Number(rows[0]?.n)).toBe(2);
    await storage.close();
  });

  it('migrates a version-1 database: calls written before it read with no session or feedback, searchable by name, in their trace', async () => {
    const database = freshDatabaseName();
    await connection.commandOnEveryHost(`CREATE DATABASE ${database}`);
    await connection.commandOnEveryHost(
      `CREATE TABLE ${database}.weft_migrations (version UInt32, name String, applied_at Float64) ENGINE = ReplacingMergeTree ORDER BY version`,
    );
    for (const sql of migrations[0]?.statements(database, undefined, { kind: 'legacy', textIndex: 'none' }) ??
      [])
      await connection.commandOnEveryHost(sql);
    await connection.commandOnEveryHost(
      `INSERT INTO ${database}.weft_migrations VALUES (1, 'calls, objects, tables, files', 0)`,
    );
    const id = '0190a5f0-0000-7000-8000-000000000002';
    // A start half exactly as version 1 wrote it (no migration-2 columns).
    await connection.commandOnEveryHost(`INSERT INTO ${database}.calls (project, id, half, seq, event_ms, trace_id, op_name, op_plain, started_at, status)
      VALUES ('p', '${id}', 1, 1, 5, '${id}', 'old', 'old', 5, 'running')`);
    // And a start alone, sent twice: the trace view shows its newest copy.
    const child = '0190a5f0-0000-7000-8000-000000000003';
    for (const [seq, op] of [
      [2, 'child-old'],
      [3, 'child'],
    ])
      await connection.commandOnEveryHost(`INSERT INTO ${database}.calls (project, id, half, seq, event_ms, trace_id, parent_id, op_name, op_plain, started_at, status)
        VALUES ('p', '${child}', 1, ${seq}, 4, '${id}', '${id}', '${op}', '${op}', 4, 'running')`);
    await connection.commandOnEveryHost(`INSERT INTO ${database}.calls (project, id, half, seq, event_ms, ended_at, status)
      VALUES ('p', '${id}', 2, 4, 9, 9, 'success')`);
    const storage = await ClickHouseStorage.open({ hosts: [host()], database });
    expect(storage.schemaVersion).toBe(migrations.at(-1)?.version);
    const call = await storage.readCall('p', id);
    expect(call).toMatchObject({ opName: 'old', startedAt: 5, endedAt: 9, feedback: [] });
    // The trace view's table is filled from the halves stored before it.
    expect(await storage.traceColumns('p', id, 10)).toMatchObject({
      ids: [child, id],
      parents: [1, null],
      startedAt: [4, 5],
      endedAt: [null, 9],
      status: ['running', 'success'],
      strings: ['child', 'old'],
    });
    expect(call?.sessionId).toBeUndefined();
    const query = { project: 'p', limit: 10, sort: { field: 'startedAt', direction: 'desc' } } as const;
    expect((await storage.queryCalls({ ...query, text: 'OLD' })).calls.map((c) => c.id)).toEqual([id]);
    expect((await storage.queryCalls(query)).calls.map((c) => c.id)).toEqual([id, child]);
    expect(await storage.querySessions({ project: 'p', limit: 10 })).toEqual({
      sessions: [],
      nextCursor: null,
    });
    await storage.close();
  });

  it('asks the server its version once: creating a database, then deleting a trace', async () => {
    const asked: string[] = [];
    const listener = (message: unknown) => {
      const { sql } = message as { sql: string };
      if (/version\(\)/i.test(sql)) asked.push(sql);
    };
    QUERY_CHANNEL.subscribe(listener);
    try {
      const storage = await ClickHouseStorage.open({ hosts: [host()], database: freshDatabaseName() });
      const id = '0190a5f0-0000-7000-8000-000000000003';
      await storage.ingestCalls('p', [
        {
          type: 'complete',
          id,
          traceId: id,
          parentId: null,
          opName: 'op',
          startedAt: 5,
          endedAt: 9,
          inputs: {},
        },
      ]);
      await storage.lifecycle.deleteTraces('p', [id]);
      expect(await storage.readCall('p', id)).toBeUndefined();
      await storage.close();
    } finally {
      QUERY_CHANNEL.unsubscribe(listener);
    }
    expect(asked).toHaveLength(1);
  });

  it('refuses a database name that is not a plain identifier, naming the option', async () => {
    await expect(
      ClickHouseStorage.open({ hosts: [host()], database: 'x; DROP DATABASE y' }),
    ).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      path: 'storage.database',
    });
  });
});
