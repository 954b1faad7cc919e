import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallItem, CallQueryParsed } from '@weft/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CALL_INDEX_AFTER, CALL_INDEX_BEFORE, CALL_INDEX_SETUP } from './call-index.js';
import { UPSERT, upsertRow } from './call-store.js';
import { histogramBlob } from './histogram-blob.js';
import { float64BlobOfJson } from './histogram-blob-float64.js';
import { migrations } from './migrations.js';
import { SqliteStorage } from './sqlite-storage.js';

async function dbPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-call-index-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'weft.db');
}

const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const start = (
  n: number,
  inputs: Record<string, unknown>,
  attributes?: Record<string, unknown>,
): CallItem => ({
  type: 'start',
  id: id(n),
  traceId: id(n),
  parentId: null,
  opName: 'op',
  displayName: `call ${n}`,
  startedAt: 1_700_000_000_000 + n,
  inputs,
  ...(attributes === undefined ? {} : { attributes }),
});
const end = (n: number, output: unknown): CallItem => ({
  type: 'end',
  id: id(n),
  endedAt: 1_700_000_000_100 + n,
  output,
});
const complete = (
  n: number,
  inputs: Record<string, unknown>,
  output: unknown,
  attributes?: Record<string, unknown>,
): CallItem => {
  const { type: _s, ...s } = start(n, inputs, attributes) as Extract<CallItem, { type: 'start' }>;
  const { type: _e, ...e } = end(n, output) as Extract<CallItem, { type: 'end' }>;
  return { type: 'complete', ...s, ...e };
};

/** The ids of the calls `filter` finds in project `p`, sorted. */
async function found(storage: SqliteStorage, filter: Partial<CallQueryParsed>): Promise<string[]> {
  const page = await storage.queryCalls({
    project: 'p',
    limit: 100,
    sort: { field: 'startedAt', direction: 'asc' },
    ...filter,
  });
  return page.calls.map((call) => call.id);
}

/**
 * Both indexes exactly as `calls` says they should be: FTS5 checks its
 * index against the content table (rank 1), and `call_attributes` holds
 * exactly the distinct terms of each call's `attribute_terms`.
 */
function expectIndexesInStep(path: string): void {
  // Writable: FTS5 takes its integrity check as a command row (nothing is written).
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    // Throws SQLITE_CORRUPT_VTAB when an indexed row's text differs from the row's.
    expect(() =>
      db.exec("INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)"),
    ).not.toThrow();
    const order = 'ORDER BY 1, 2, 3, 4, 5';
    const stored = db
      .prepare(
        `SELECT a.project, c.id, a.key, a.kind, a.value FROM call_attributes a JOIN calls c ON c.rowid = a.call_row ${order}`,
      )
      .all();
    const derived = db
      .prepare(
        `SELECT DISTINCT c.project, c.id, t.value ->> 0, t.value ->> 1, t.value ->> 2
         FROM calls c, json_each(c.attribute_terms) t ${order}`,
      )
      .all()
      .map((row) => Object.values(row as object));
    expect(stored.map((row) => Object.values(row as object))).toEqual(derived);
  } finally {
    db.close();
  }
}

describe.each([
  { writerThread: false, label: 'on the calling thread' },
  { writerThread: true, label: 'with the writer thread' },
])('search and attribute indexes, $label', ({ writerThread }) => {
  it('find a call by its inputs once its start is stored, and by its output once its end is', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [start(1, { q: 'kestrel' }, { env: 'prod' })]);
    expect(await found(storage, { text: 'kestrel' })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(1)]);
    expect(await found(storage, { text: 'heron' })).toEqual([]);

    await storage.ingestCalls('p', [end(1, 'a heron')]);
    expect(await found(storage, { text: 'heron' })).toEqual([id(1)]);
    expect(await found(storage, { text: 'kestrel heron' })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(1)]);
    expectIndexesInStep(path);
  });

  it('follow a re-sent start that changes inputs and attributes, and forget the old ones', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [complete(1, { q: 'kestrel' }, 'done', { env: 'prod', tags: ['a'] })]);
    await storage.ingestCalls('p', [start(1, { q: 'osprey' }, { env: 'dev' })]);
    expect(await found(storage, { text: 'kestrel' })).toEqual([]);
    expect(await found(storage, { text: 'osprey done' })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([]);
    expect(await found(storage, { tag: 'a' })).toEqual([]);
    expect(await found(storage, { attributes: { env: 'dev' } })).toEqual([id(1)]);
    // A start with no attributes at all leaves none indexed.
    await storage.ingestCalls('p', [start(1, { q: 'osprey' })]);
    expect(await found(storage, { attributes: { env: 'dev' } })).toEqual([]);
    expectIndexesInStep(path);
  });

  it('store terms as JSONB, and replace terms an earlier version stored as JSON text', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [complete(1, { q: 'kestrel' }, 'done', { env: 'prod', tags: ['a'] })]);
    await storage.ingestCalls('p', [complete(2, { q: 'heron' }, 'done', { env: 'prod' })]);
    const raw = new Database(path);
    onTestFinished(() => {
      raw.close();
    });
    raw.pragma('busy_timeout = 5000');
    const kind = raw.prepare('SELECT typeof(attribute_terms) FROM calls WHERE id = ?').pluck();
    expect(kind.get(id(1))).toBe('blob');
    // As rows written before JSONB hold them.
    raw.prepare('UPDATE calls SET attribute_terms = json(attribute_terms)').run();
    expect(kind.get(id(1))).toBe('text');
    await storage.ingestCalls('p', [start(1, { q: 'kestrel' }, { env: 'dev' })]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(2)]);
    expect(await found(storage, { tag: 'a' })).toEqual([]);
    expect(await found(storage, { attributes: { env: 'dev' } })).toEqual([id(1)]);
    expect(kind.get(id(1))).toBe('blob');
    // The same terms again, text before and JSONB now: still found once.
    await storage.ingestCalls('p', [start(2, { q: 'heron' }, { env: 'prod' })]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(2)]);
    expectIndexesInStep(path);
  });

  it('index the last state of a call sent several times in one batch, end before start included', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [
      end(1, 'first osprey'),
      start(1, { q: 'kestrel' }, { env: 'prod' }),
      start(2, { q: 'heron' }),
      complete(2, { q: 'heron again' }, 'gull', { env: 'dev' }),
      complete(2, { q: 'heron again' }, 'gull', { env: 'dev' }),
      end(3, 'only an end'),
    ]);
    expect(await found(storage, { text: 'osprey kestrel' })).toEqual([id(1)]);
    expect(await found(storage, { text: 'again gull' })).toEqual([id(2)]);
    expect(await found(storage, { attributes: { env: 'dev' } })).toEqual([id(2)]);
    // Call 3 has no start yet, so it is not listed; its start finds it by both halves.
    await storage.ingestCalls('p', [start(3, { q: 'swift' })]);
    expect(await found(storage, { text: 'swift only' })).toEqual([id(3)]);
    expectIndexesInStep(path);
  });

  it('leave the indexes untouched by a re-sent duplicate, and roll them back with a failed batch', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    const call = complete(1, { q: 'kestrel' }, 'done', { env: 'prod' });
    await storage.ingestCalls('p', [call]);
    await storage.ingestCalls('p', [call]);
    expect(await found(storage, { text: 'kestrel', attributes: { env: 'prod' } })).toEqual([id(1)]);
    // A NULL id fails the batch inside its transaction, after the index copy was taken.
    const broken = { ...start(3, { q: 'osprey' }), id: null } as never;
    await expect(
      storage.ingestCalls('p', [start(1, { q: 'swift' }), start(2, { q: 'osprey' }), broken]),
    ).rejects.toThrow();
    expect(await found(storage, { text: 'osprey' })).toEqual([]);
    expect(await found(storage, { text: 'kestrel' })).toEqual([id(1)]);
    await storage.ingestCalls('p', [start(2, { q: 'osprey' })]);
    expect(await found(storage, { text: 'osprey' })).toEqual([id(2)]);
    expectIndexesInStep(path);
  });

  it('keep a term repeated in one call once, find the call by it once, and drop it when the call changes', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [
      start(1, {}, { tags: ['a', 'a', 'b'], env: 'prod', n: 2, ok: true }),
      start(2, {}, { tags: ['a'] }),
    ]);
    expect(await found(storage, { tag: 'a' })).toEqual([id(1), id(2)]);
    expect(await found(storage, { tag: 'a', attributes: { n: 2, ok: true } })).toEqual([id(1)]);
    expectIndexesInStep(path);
    await storage.ingestCalls('p', [start(1, {}, { tags: ['b', 'b'], n: 3 })]);
    expect(await found(storage, { tag: 'a' })).toEqual([id(2)]);
    expect(await found(storage, { tag: 'b', attributes: { n: 3 } })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { n: 2 } })).toEqual([]);
    expect(await found(storage, { attributes: { ok: true } })).toEqual([]);
    expectIndexesInStep(path);
  });
});

/** A database file at schema `version`, as a server of that version left it. */
function databaseAtMigration(path: string, version: number): Database.Database {
  const db = new Database(path);
  db.exec(
    'CREATE TABLE weft_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)',
  );
  for (const migration of migrations.filter((m) => m.version <= version)) {
    if (migration.sql !== undefined) db.exec(migration.sql);
    migration.run?.(db);
    db.prepare('INSERT INTO weft_migrations VALUES (?, ?, 0)').run(migration.version, migration.name);
  }
  return db;
}

describe('the batch index statements', () => {
  it("reach the calls table only by the batch's keys, never by walking the project's calls", async () => {
    const path = await dbPath();
    await new SqliteStorage({ path }).close();
    const db = new Database(path);
    try {
      db.exec(CALL_INDEX_SETUP);
      for (const sql of [...CALL_INDEX_BEFORE, ...CALL_INDEX_AFTER]) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all({ project: 'p', ids: '[]', refs: '[]', termSets: '[]' })
          .map((step) => (step as { detail: string }).detail);
        // A step on `calls c` must be a lookup by rowid or by (project, id):
        // one by project alone costs a walk of every call of it, per batch.
        const walks = plan.filter(
          (detail) => /^(SCAN|SEARCH) c /.test(detail) && !/\((rowid=\?|project=\? AND id=\?)\)/.test(detail),
        );
        expect({ sql, walks }).toEqual({ sql, walks: [] });
      }
    } finally {
      db.close();
    }
  });
});

describe('a database made at migration 6 (attribute rows with a rowid and two indexes)', () => {
  it('migrates to the keyed attribute table: every call stays findable by its attributes, repeats kept once', async () => {
    const path = await dbPath();
    const db = databaseAtMigration(path, 6);
    // Rows as migration 6's batch statements wrote them: one per term, a repeated term twice.
    const upsert = db.prepare(UPSERT);
    upsert.run(upsertRow('p', complete(1, { q: 'kestrel' }, 'done', { env: 'prod', tags: ['a', 'a'] })));
    upsert.run(upsertRow('p', start(2, { q: 'heron' }, { env: 'prod', n: 1.5 })));
    db.exec(`INSERT INTO call_attributes (project, call_id, key, kind, value)
      SELECT c.project, c.id, t.value ->> 0, t.value ->> 1, t.value ->> 2 FROM calls c, json_each(c.attribute_terms) t`);
    db.exec("INSERT INTO calls_fts (calls_fts) VALUES ('rebuild')");
    expect(db.prepare('SELECT count(*) FROM call_attributes').pluck().get()).toBe(5);
    db.close();

    const storage = new SqliteStorage({ path });
    onTestFinished(() => storage.close());
    expect(storage.schemaVersion).toBe(migrations.at(-1)?.version);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(1), id(2)]);
    expect(await found(storage, { tag: 'a' })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { n: 1.5 } })).toEqual([id(2)]);
    // A migrated call's old terms are replaced when its start is re-sent.
    await storage.ingestCalls('p', [start(2, { q: 'heron' }, { env: 'dev' })]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { n: 1.5 } })).toEqual([]);
    await storage.close();

    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    expect(
      raw
        .prepare(
          "SELECT name FROM sqlite_master WHERE tbl_name = 'call_attributes' AND type = 'index' AND sql IS NOT NULL",
        )
        .all(),
    ).toEqual([]);
    expectIndexesInStep(path);
  });
});

describe('a database made at migration 5 (indexes kept by triggers)', () => {
  it('migrates to batch indexing: old calls stay findable and are re-indexed when their end arrives', async () => {
    const path = await dbPath();
    const db = databaseAtMigration(path, 5);
    // Written as the server at migration 5 wrote them: one upsert each, the triggers index them.
    const upsert = db.prepare(UPSERT);
    upsert.run(upsertRow('p', complete(1, { q: 'kestrel' }, 'done', { env: 'prod' })));
    upsert.run(upsertRow('p', start(2, { q: 'heron' }, { env: 'prod' })));
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get()).toBe(4);
    db.close();

    const storage = new SqliteStorage({ path });
    onTestFinished(() => storage.close());
    expect(storage.schemaVersion).toBe(migrations.at(-1)?.version);
    expect(await found(storage, { text: 'kestrel' })).toEqual([id(1)]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(1), id(2)]);

    await storage.ingestCalls('p', [
      end(2, 'a gull'),
      start(1, { q: 'osprey' }, { env: 'dev' }),
      start(3, { q: 'swift' }),
    ]);
    expect(await found(storage, { text: 'heron gull' })).toEqual([id(2)]);
    expect(await found(storage, { text: 'kestrel' })).toEqual([]);
    expect(await found(storage, { text: 'osprey' })).toEqual([id(1)]);
    expect(await found(storage, { text: 'swift' })).toEqual([id(3)]);
    expect(await found(storage, { attributes: { env: 'prod' } })).toEqual([id(2)]);
    await storage.close();

    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    expect(raw.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").pluck().get()).toBe(0);
    expectIndexesInStep(path);
  });
});

describe('a database made at migration 7 (the op-name sort index keyed by id)', () => {
  it('re-keys calls_op by start time within each op; old calls page in the new order', async () => {
    const path = await dbPath();
    const db = databaseAtMigration(path, 7);
    const upsert = db.prepare(UPSERT);
    // Ids in the opposite order to start times, so the two orders differ.
    for (const n of [1, 2, 3])
      upsert.run(
        upsertRow('p', {
          ...(start(n, {}) as Extract<CallItem, { type: 'start' }>),
          startedAt: 1_700_000_000_000 - n,
        }),
      );
    db.close();

    const storage = new SqliteStorage({ path });
    onTestFinished(() => storage.close());
    expect(storage.schemaVersion).toBe(migrations.at(-1)?.version);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await storage.queryCalls({
        project: 'p',
        limit: 1,
        sort: { field: 'opName', direction: 'asc' },
        ...(cursor === undefined ? {} : { cursor }),
      });
      ids.push(...page.calls.map((call) => call.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(ids).toEqual([id(3), id(2), id(1)]);
    await storage.close();

    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    const columns = raw
      .prepare("SELECT name FROM pragma_index_info('calls_op') ORDER BY seqno")
      .pluck()
      .all();
    expect(columns).toEqual(['project', 'op_plain', 'started_at', 'id']);
  });
});

describe.each([
  { version: 10, form: 'JSON bin lists', bins: (json: string | null) => json },
  { version: 11, form: 'float64 counts', bins: float64BlobOfJson },
])('a database made at migration $version (rollup histograms as $form)', ({ version, bins: binsOf }) => {
  it('migrates the bins to varints: the same counts read back', async () => {
    const path = await dbPath();
    const db = databaseAtMigration(path, version);
    // Two hour rows as that migration wrote them: latency bins 100 (×3) and 120, TTFT bin 50 (×2).
    const insert = db.prepare(`INSERT INTO call_rollups VALUES
      ('p', '', '*', 'h', ?, 1, 'success', '', ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ?, ?)`);
    insert.run(0, 3, binsOf('[[100,2],[120,1]]'), binsOf('[[50,2]]'));
    insert.run(3_600_000, 1, binsOf('[[100,1]]'), binsOf(null));
    db.close();
    const storage = new SqliteStorage({ path });
    onTestFinished(() => storage.close());
    const [row, ...more] = await storage.monitoring.readCallRollups({
      ...{ project: 'p', level: 'h', ranges: [[0, 7_200_000]], cut: '', ops: { all: true } },
      ...{ byValue: false, sums: ['n'], histograms: ['latency', 'ttft'] },
    });
    expect(more).toEqual([]);
    expect(row?.values.n).toBe(4);
    expect([...(row?.values.latency ?? [])].sort((a, b) => a[0] - b[0])).toEqual([
      [100, 3],
      [120, 1],
    ]);
    expect([...(row?.values.ttft ?? [])]).toEqual([[50, 2]]);
    await storage.close();
    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    const stored = raw.prepare('SELECT latency_bins, ttft_bins FROM call_rollups ORDER BY t').raw().all();
    const varints = (json: string) => histogramBlob(new Map(JSON.parse(json)));
    expect(stored).toEqual([
      [varints('[[100,2],[120,1]]'), varints('[[50,2]]')],
      [varints('[[100,1]]'), null],
    ]);
  });
});
