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
  service: string;
  model: string;
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
    // Shared terms (term-sets.ts): a few distinct resource and model sets.
    const service = n % 3 === 0 ? 'billing' : 'search';
    const model = n % 5 === 0 ? 'm-small' : 'm-large';
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
      attributes: { env, 'otel.resource': { 'service.name': service }, 'gen_ai.request.model': model },
    });
    expected.push({ id: idOf(n), startedAt, latency, op, words, env, service, model });
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
/** `call_attributes` rows as ingest wrote them. */
let attributeRows: number;
const prepared: string[] = [];
const { items, expected } = dataset();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-call-query-'));
  const path = join(dir, 'weft.db');
  const storage = new SqliteStorage({ path });
  await storage.ingestCalls(PROJECT, items);
  await storage.close();
  raw = new Database(path);
  attributeRows = raw.prepare('SELECT COUNT(*) FROM call_attributes').pluck().get() as number;
  // Every 4th call as stored before migration 15: its shared terms as its own rows, no set row.
  raw.exec(`
    CREATE TEMP TABLE legacy AS SELECT rowid AS call_row FROM calls WHERE rowid % 4 = 0;
    INSERT INTO call_attributes (project, call_row, key, kind, value)
      SELECT a.project, a.call_row, s.key, s.kind, s.value FROM call_attributes a
      JOIN call_term_sets s ON s.project = a.project AND s.term_set = a.value
      WHERE a.key = '' AND a.kind = 't' AND a.call_row IN (SELECT call_row FROM temp.legacy);
    DELETE FROM call_attributes WHERE key = '' AND kind = 't' AND call_row IN (SELECT call_row FROM temp.legacy);
  `);
  expect(
    raw.prepare("SELECT COUNT(*) FROM call_attributes WHERE key = 'gen_ai.request.model'").pluck().get(),
  ).toBe(COUNT / 4);
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
    name: 'a resource attribute',
    filter: { attributes: { 'otel.resource.service.name': 'billing' } },
    keep: (e) => e.service === 'billing',
  },
  {
    name: 'a model, a resource attribute and an own attribute',
    filter: {
      attributes: { 'gen_ai.request.model': 'm-small', 'otel.resource.service.name': 'search', env: 'dev' },
    },
    keep: (e) => e.model === 'm-small' && e.service === 'search' && e.env === 'dev',
  },
  {
    name: 'a model and a word',
    filter: { text: 'mid', attributes: { 'gen_ai.request.model': 'm-small' } },
    keep: (e) => e.words.includes('mid') && e.model === 'm-small',
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

it('indexes the shared terms of a call as one row naming their set', () => {
  // env, and the set of service and model: 2 rows a call (3 when each term was a row).
  expect(attributeRows).toBe(2 * COUNT);
  expect(raw.prepare('SELECT COUNT(DISTINCT term_set) FROM call_term_sets').pluck().get()).toBe(4);
});

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
