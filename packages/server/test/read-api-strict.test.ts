import { join } from 'node:path';
import { encodeMsgpack, routes } from '@weft/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/storage/sqlite/migrations.js';
import { callIdOf, completeOf } from './support/calls.js';
import { get, post } from './support/http.js';
import { startTestServer, tempDir } from '@weft/test-server';

describe('the call query refuses what it does not understand', () => {
  it.each([
    [{ project: 'p', opname: 'chat' }, 'opname'],
    [{ project: 'p', parentID: callIdOf(1) }, 'parentID'],
    [{ project: 'p', sort: { field: 'startedAt', dir: 'asc' } }, 'sort.dir'],
  ])('answers 400 naming the unknown key %j', async (query, key) => {
    const server = await startTestServer();
    await post(server.url, routes.callBatch(), { project: 'p', items: [completeOf(1)] });
    const reply = await post(server.url, routes.callQuery(), query);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('WEFT_INVALID_REQUEST');
    expect(reply.body.error.path).toBe(key);
    expect(reply.body.error.message).toContain(JSON.stringify(key.split('.').at(-1)));
  });

  it('still answers a query of known keys', async () => {
    const server = await startTestServer();
    await post(server.url, routes.callBatch(), { project: 'p', items: [completeOf(1)] });
    const reply = await post(server.url, routes.callQuery(), { project: 'p', opName: 'op', limit: 5 });
    expect(reply.status).toBe(200);
    expect(reply.body.calls).toHaveLength(1);
  });
});

/**
 * A database as a server before the body-shape check left it: schema
 * version 1, and a call whose values hold msgpack 64-bit integers (the
 * server then stored whatever msgpack decoded, bigints included).
 */
function writeOldFormatDb(path: string): void {
  const db = new Database(path);
  try {
    db.exec(migrations[0]?.sql as string);
    db.exec(
      'CREATE TABLE weft_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)',
    );
    db.prepare('INSERT INTO weft_migrations VALUES (1, ?, 0)').run(migrations[0]?.name);
    const insert =
      db.prepare(`INSERT INTO calls (project, id, has_start, has_end, trace_id, parent_id, op_name, op_plain,
      started_at, inputs, attributes, ended_at, output, summary, status)
      VALUES ('p', ?, 1, 1, ?, NULL, 'op', 'op', ?, ?, ?, ?, ?, ?, 'success')`);
    const big = 2n ** 63n - 1n;
    insert.run(
      callIdOf(1),
      callIdOf(1),
      1_700_000_000_000,
      encodeMsgpack({ n: 1, seed: -(2n ** 62n), nested: [{ id: big }] }),
      encodeMsgpack({ tag: 'a' }),
      1_700_000_000_010,
      encodeMsgpack(big),
      encodeMsgpack({ latencyMs: 10, status: 'success', extra: 2n ** 60n }),
    );
    insert.run(
      callIdOf(2),
      callIdOf(2),
      1_700_000_000_001,
      encodeMsgpack({ n: 2 }),
      null,
      1_700_000_000_011,
      encodeMsgpack('ok'),
      null,
    );
  } finally {
    db.close();
  }
}

describe('rows stored before the bigint fix', () => {
  it('are readable after the migration, with each bigint in its safe form', async () => {
    const dbPath = join(await tempDir(), 'old.db');
    writeOldFormatDb(dbPath);
    const server = await startTestServer({ dbPath });

    const one = await get(server.url, routes.call('p', callIdOf(1)));
    expect(one.status).toBe(200);
    expect(one.body.inputs).toEqual({
      n: 1,
      seed: { _weft: 'bigint', value: String(-(2n ** 62n)) },
      nested: [{ id: { _weft: 'bigint', value: String(2n ** 63n - 1n) } }],
    });
    expect(one.body.output).toEqual({ _weft: 'bigint', value: String(2n ** 63n - 1n) });
    expect(one.body.summary).toMatchObject({
      latencyMs: 10,
      extra: { _weft: 'bigint', value: String(2n ** 60n) },
    });
    expect(one.body.attributes).toEqual({ tag: 'a' });

    const listed = await post(server.url, routes.callQuery(), {
      project: 'p',
      sort: { field: 'startedAt', direction: 'asc' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.calls.map((c: { id: string }) => c.id)).toEqual([callIdOf(1), callIdOf(2)]);
    expect(listed.body.calls[1].output).toBe('ok');

    const db = new Database(dbPath, { readonly: true });
    try {
      // Every migration ran, the bigint one (2) and those after it.
      expect(db.prepare('SELECT MAX(version) AS v FROM weft_migrations').get()).toEqual({
        v: migrations.at(-1)?.version,
      });
    } finally {
      db.close();
    }
  });
});
