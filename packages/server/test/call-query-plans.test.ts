import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallItem, type CallQueryParsed, type CallSortField, callQuery } from '@weft/protocol';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteCallQuery } from '../src/storage/sqlite/call-query.js';
import type { QueryPlanBounds } from '../src/storage/sqlite/call-query-plan.js';
import { SqliteFeedbackStore } from '../src/storage/sqlite/feedback-store.js';
import { SqliteStorage } from '../src/storage/sqlite/sqlite-storage.js';
import { type SortKey, sortedIds } from './support/sorted-ids.js';

const PROJECT = 'plans';
const COUNT = 400;
const OPS = ['chat', 'embed', 'rank', 'retrieve'];

interface Expected {
  id: string;
  startedAt: number;
  latency: number;
  op: string;
  words: string[];
  env: string;
}

const idOf = (n: number) => `0190a5f0-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * Calls whose words, ops and attributes match at different rates; start
 * times repeat (every 3 calls share one) and arrive out of rowid order, so
 * neither the id tie-break nor the rowid can stand in for the sort order.
 */
function dataset(): { items: CallItem[]; expected: Expected[] } {
  const items: CallItem[] = [];
  const expected: Expected[] = [];
  for (let n = 0; n < COUNT; n++) {
    const words = ['common'];
    if (n % 3 === 0) words.push('mid');
    if (n % 37 === 0) words.push('rare');
    const op = n % 50 === 7 ? 'op.rare' : (OPS[n % OPS.length] as string);
    const startedAt = 1_700_000_000_000 + Math.floor(((n * 7919) % COUNT) / 3);
    const latency = (n * 31) % 17;
    const env = n % 2 === 0 ? 'prod' : 'dev';
    items.push({
      type: 'complete',
      id: idOf(n),
      traceId: idOf(n),
      parentId: null,
      opName: op,
      startedAt,
      endedAt: startedAt + latency,
      inputs: { q: `${words.join(' ')} filler` },
      output: `answer ${n}`,
      attributes: { env },
    });
    expected.push({ id: idOf(n), startedAt, latency, op, words, env });
  }
  return { items, expected };
}

const keyOf: Record<CallSortField, (e: Expected) => SortKey> = {
  startedAt: (e) => e.startedAt,
  latencyMs: (e) => e.latency,
  opName: (e) => [e.op, e.startedAt],
};

let dir: string;
let raw: Database.Database;
const prepared: string[] = [];
const { items, expected } = dataset();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-call-query-'));
  const path = join(dir, 'weft.db');
  const storage = new SqliteStorage({ path });
  await storage.ingestCalls(PROJECT, items);
  await storage.close();
  raw = new Database(path);
  // Records each statement's SQL, to see which form of a filter the plan chose.
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof raw.prepare;
});
afterAll(async () => {
  raw.close();
  await rm(dir, { recursive: true, force: true });
});

/** Snippets: one pass over the matches between the page's rowids, or one lookup per row. */
const SNIPPET_PASS = /snippet\(.*rowid BETWEEN/s;
const SNIPPET_LOOKUPS = /snippet\(.*MATCH \? AND rowid IN/s;

/**
 * Bounds that force each plan: every indexed filter drives; or walks testing
 * full text by its match list; or by a probe per row.
 */
const PLANS: { name: string; bounds: QueryPlanBounds; textForm: RegExp; snippetForm: RegExp }[] = [
  {
    name: 'drive',
    bounds: { fewIndexMatches: 1e9, fewTextMatches: 1e9, textSetMatches: 1e9 },
    textForm: /FROM \(SELECT rowid AS hit FROM calls_fts/,
    snippetForm: SNIPPET_PASS,
  },
  {
    name: 'walk, match list',
    bounds: { fewIndexMatches: 0, fewTextMatches: 0, textSetMatches: 1e9 },
    textForm: /calls\.rowid IN \(SELECT rowid FROM calls_fts/,
    snippetForm: SNIPPET_PASS,
  },
  {
    name: 'walk, probe',
    bounds: { fewIndexMatches: 0, fewTextMatches: 0, textSetMatches: 0 },
    textForm: /EXISTS \(SELECT 1 FROM calls_fts/,
    snippetForm: SNIPPET_LOOKUPS,
  },
];

const FILTERS: { name: string; filter: Record<string, unknown>; keep: (e: Expected) => boolean }[] = [
  { name: 'a mid-frequency word', filter: { text: 'mid' }, keep: (e) => e.words.includes('mid') },
  {
    // The op name is searched too: 'op.rare' holds the word 'rare'.
    name: 'two words',
    filter: { text: 'mid rare' },
    keep: (e) => e.words.includes('mid') && (e.words.includes('rare') || e.op === 'op.rare'),
  },
  { name: 'a rare op', filter: { opName: 'op.rare' }, keep: (e) => e.op === 'op.rare' },
  {
    name: 'two ops',
    filter: { opName: ['op.rare', 'rank'] },
    keep: (e) => e.op === 'op.rare' || e.op === 'rank',
  },
  {
    name: 'a word, an op and an attribute',
    filter: { text: 'common', opName: ['chat', 'embed'], attributes: { env: 'prod' } },
    keep: (e) => (e.op === 'chat' || e.op === 'embed') && e.env === 'prod',
  },
  {
    name: 'a word and a rare op',
    filter: { text: 'mid', opName: 'op.rare' },
    keep: (e) => e.words.includes('mid') && e.op === 'op.rare',
  },
];

const SORTS = (['startedAt', 'latencyMs', 'opName'] as const).flatMap((field) =>
  (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
);

describe.each(PLANS)('call query plan: $name', ({ bounds, textForm, snippetForm }) => {
  it.each(FILTERS)(
    'pages $name in every sort order with no gap, duplicate or misorder',
    ({ filter, keep }) => {
      const query = new SqliteCallQuery(raw, { feedback: new SqliteFeedbackStore(raw), bounds });
      const want = expected.filter(keep);
      expect(want.length).toBeGreaterThan(0);
      for (const sort of SORTS) {
        const ids: string[] = [];
        let cursor: string | undefined;
        do {
          const parsed: CallQueryParsed = callQuery.parse({
            project: PROJECT,
            limit: 7,
            sort,
            ...filter,
            ...(cursor ? { cursor } : {}),
          });
          const page = query.run(parsed);
          ids.push(...page.calls.map((c) => c.id));
          // Every full-text hit comes with its highlighted passage.
          if (filter.text !== undefined)
            for (const call of page.calls) expect(call.snippet?.some((p) => p.match)).toBe(true);
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(ids, `${sort.field} ${sort.direction}`).toEqual(
          sortedIds(want, keyOf[sort.field], sort.direction),
        );
      }
    },
  );

  it('uses the full-text form its bounds call for', () => {
    prepared.length = 0;
    const query = new SqliteCallQuery(raw, { feedback: new SqliteFeedbackStore(raw), bounds });
    query.run(callQuery.parse({ project: PROJECT, text: 'mid' }));
    expect(prepared.some((sql) => textForm.test(sql))).toBe(true);
    expect(prepared.some((sql) => snippetForm.test(sql))).toBe(true);
  });
});
