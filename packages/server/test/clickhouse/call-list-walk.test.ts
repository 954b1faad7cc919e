import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallItem, type CallQuery, callQuery } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClickHouseStorage, SqliteStorage } from '../../src/index.js';
import { ClickHouseCallQuery } from '../../src/storage/clickhouse/call-query.js';
import { ClickHouseConnection, QUERY_CHANNEL } from '../../src/storage/clickhouse/clickhouse-connection.js';
import { ClickHouseFeedbackStore } from '../../src/storage/clickhouse/feedback-store.js';
import { listTimeSql } from '../../src/storage/clickhouse/list-schema.js';
import { storedProfile } from '../../src/storage/clickhouse/schema-profile.js';
import { callIdOf, completeOf, endOf, startOf } from '../support/calls.js';
import { freshDatabaseName } from '../support/test-storage.js';

// A page walks call_list in sort order and drops stale copies of a call
// (see call-query.ts). Here reads of TWO list rows force a walk of many reads
// on every page, over calls whose stale copies (a start stored before its
// end, an earlier start with another op name and time) lie elsewhere in the
// order; every page sequence must equal SQLite's answer.

const T = 1_700_000_000_000;
const OPS = ['alpha', 'beta', 'gamma'];
/** Ids not in start-time order, so ties on the sort key break on ids in another order. */
const idOf = (n: number) => callIdOf((n * 37) % 101);

function realRecords(): CallItem[] {
  const items: CallItem[] = [];
  for (let n = 0; n < 60; n++) {
    const fields = {
      id: idOf(n),
      traceId: idOf(n),
      parentId: n % 4 === 0 ? callIdOf(999) : null,
      opName: OPS[n % 3] as string,
      startedAt: T + (n % 7) * 1_000,
      inputs: { q: `word${n % 3} common` },
    };
    const end = { id: idOf(n), endedAt: T + (n % 7) * 1_000 + (n % 11) * 10, output: { n } };
    if (n % 5 === 0) items.push(startOf(n, fields));
    else if (n % 5 === 1) items.push(endOf(n, end), startOf(n, fields));
    else if (n % 5 === 2)
      items.push(completeOf(n, { ...fields, ...end, exception: { name: 'Error', message: 'boom' } }));
    else items.push(completeOf(n, { ...fields, ...end }));
  }
  // An end whose start never came: never listed.
  items.push(endOf(500, { id: callIdOf(500) }));
  return items;
}

/** Earlier start copies that the real ones replace: newest-first or oldest-first they would lead a walk. */
function staleStarts(): CallItem[] {
  const stale: CallItem[] = [];
  for (let n = 0; n < 60; n++) {
    if (n % 6 === 3)
      stale.push(startOf(n, { id: idOf(n), traceId: idOf(n), opName: 'zeta', startedAt: T + 50_000 }));
    if (n % 6 === 4)
      stale.push(
        startOf(n, { id: idOf(n), traceId: idOf(n), opName: 'aaa', startedAt: T - 50_000, parentId: null }),
      );
  }
  return stale;
}

const SORTS = [
  { field: 'startedAt', direction: 'desc' },
  { field: 'startedAt', direction: 'asc' },
  { field: 'opName', direction: 'asc' },
  { field: 'opName', direction: 'desc' },
  { field: 'latencyMs', direction: 'desc' },
] as const;
const FILTERS: CallQuery[] = [
  { project: 'p' },
  { project: 'p', parentId: null },
  { project: 'p', opName: 'beta' },
  { project: 'p', opName: ['zeta', 'aaa'] },
  { project: 'p', status: 'error' },
  { project: 'p', status: ['running', 'success'] },
  { project: 'p', text: 'word1' },
  { project: 'p', text: 'word2 common' },
  { project: 'p', startedAfter: T + 2_000, startedBefore: T + 5_000 },
];

describe('ClickHouse call pages walked over call_list', () => {
  let dir: string;
  let sqlite: SqliteStorage;
  let clickhouse: ClickHouseStorage;
  let connection: ClickHouseConnection;
  let tiny: ClickHouseCallQuery;
  let small: ClickHouseCallQuery;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-windows-'));
    const database = freshDatabaseName();
    const host = `http://${inject('clickhouseHttp')}`;
    sqlite = new SqliteStorage({ path: join(dir, 'weft.db') });
    clickhouse = await ClickHouseStorage.open({ hosts: [host], database });
    connection = new ClickHouseConnection({
      endpoint: { kind: 'http', hosts: [host] },
      username: 'default',
      password: '',
      requestTimeoutMs: 30_000,
      retryAfterMs: 1_000,
      settings: {},
    });
    const feedback = new ClickHouseFeedbackStore({
      connection,
      table: `${database}.feedback`,
      insertSettings: {},
    });
    const profile = await storedProfile(connection, database, 'call_list');
    if (profile === undefined) throw new Error('no call_list after the migrations');
    const tables = {
      connection,
      list: `${database}.call_list`,
      calls: `${database}.calls`,
      trace: `${database}.call_trace`,
      feedback,
      time: listTimeSql(profile),
      profile,
    };
    tiny = new ClickHouseCallQuery({ ...tables, walk: { rows: () => 2 } });
    // No room for stale copies: every one met costs another read.
    small = new ClickHouseCallQuery({ ...tables, walk: { rows: (wanted) => wanted } });
    // Stale copies first: the real records are the newer writes on both engines.
    for (const items of [staleStarts(), realRecords()]) {
      await sqlite.ingestCalls('p', items);
      await clickhouse.ingestCalls('p', items);
    }
  });
  afterAll(async () => {
    await clickhouse?.close();
    await connection?.close();
    await sqlite?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Every id, page after page of `limit`. */
  async function walk(
    run: (
      q: ReturnType<typeof callQuery.parse>,
    ) => Promise<{ calls: { id: string }[]; nextCursor: string | null }>,
    query: CallQuery,
    limit: number,
  ) {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await run(
        callQuery.parse({ ...query, limit, ...(cursor === undefined ? {} : { cursor }) }),
      );
      ids.push(...page.calls.map((c) => c.id));
      if (page.nextCursor === null) return ids;
      cursor = page.nextCursor;
    }
    throw new Error('no last page after 100 pages');
  }

  // Hundreds of pages of a few rows each, on a server shared with other tests: past the project default.
  it('pages every filter and sort exactly as SQLite does, through stale copies, two list rows per read', async () => {
    let compared = 0;
    for (const sort of SORTS) {
      for (const filter of FILTERS) {
        const query = { ...filter, sort };
        const expected = await walk((q) => sqlite.queryCalls(q), query, 1_000);
        expect.soft(await walk((q) => tiny.run(q), query, 3), JSON.stringify(query)).toEqual(expected);
        expect.soft(await walk((q) => small.run(q), query, 13), JSON.stringify(query)).toEqual(expected);
        expect
          .soft(await walk((q) => clickhouse.queryCalls(q), query, 7), JSON.stringify(query))
          .toEqual(expected);
        compared += expected.length;
      }
    }
    // The filters select something: not a comparison of empty lists.
    expect(compared).toBeGreaterThan(500);
  }, 600_000);

  it('reads the newest copy: stale op names and times match nothing', async () => {
    const stale = await tiny.run(callQuery.parse({ project: 'p', opName: ['zeta', 'aaa'] }));
    expect(stale.calls).toEqual([]);
    const late = await tiny.run(callQuery.parse({ project: 'p', startedAfter: T + 40_000 }));
    expect(late.calls).toEqual([]);
    const all = await tiny.run(callQuery.parse({ project: 'p', limit: 1_000 }));
    expect(all.calls).toHaveLength(60);
  });

  it('checks versions in call_list only for rows that do not match their stored halves', async () => {
    const asked: string[] = [];
    const listener = (message: unknown) => asked.push((message as { sql: string }).sql);
    QUERY_CHANNEL.subscribe(listener);
    try {
      // Calls 0–9 were all written whole or in two halves: every list row read is current.
      await clickhouse.ingestCalls(
        'q',
        Array.from({ length: 10 }, (_, n) => completeOf(n)),
      );
      const page = await clickhouse.queryCalls(callQuery.parse({ project: 'q', limit: 5 }));
      expect(page.calls).toHaveLength(5);
      expect(asked.filter((sql) => sql.includes('max(version)'))).toEqual([]);
      // Project 'p' holds stale copies: those, and only those, are checked.
      asked.length = 0;
      const all = await clickhouse.queryCalls(callQuery.parse({ project: 'p', limit: 1_000 }));
      expect(all.calls).toHaveLength(60);
      expect(asked.filter((sql) => sql.includes('max(version)'))).toHaveLength(1);
    } finally {
      QUERY_CHANNEL.unsubscribe(listener);
    }
  });
});
