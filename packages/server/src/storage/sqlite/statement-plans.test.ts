import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallItem } from '@weft/protocol';
import Database from 'better-sqlite3';
import { expect, it, onTestFinished } from 'vitest';
import { SqliteStorage } from './sqlite-storage.js';

type Method = 'run' | 'get' | 'all' | 'iterate';
const METHODS: readonly Method[] = ['run', 'get', 'all', 'iterate'];

/**
 * Records the query plan of every statement run on any connection until the
 * returned function is called, which restores better-sqlite3 and returns
 * the plans by SQL text.
 */
function recordPlans(): () => Map<string, string[]> {
  const plans = new Map<string, string[]>();
  const prototype = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
    Method,
    (...params: unknown[]) => unknown
  >;
  const originals = METHODS.map((method) => [method, prototype[method]] as const);
  const all = prototype.all;
  for (const [method, original] of originals) {
    prototype[method] = function planned(this: Database.Statement, ...params: unknown[]) {
      const sql = this.source;
      if (!plans.has(sql) && !/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|EXPLAIN)/i.test(sql)) {
        plans.set(sql, []);
        const explain = this.database.prepare(`EXPLAIN QUERY PLAN ${sql}`);
        const steps = all.apply(explain, params) as { detail: string }[];
        plans.set(
          sql,
          steps.map((step) => step.detail),
        );
      }
      return original.apply(this, params);
    };
  }
  return () => {
    for (const [method, original] of originals) prototype[method] = original;
    return plans;
  };
}

const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const complete = (n: number, trace: number): CallItem => ({
  type: 'complete',
  id: id(n),
  traceId: id(trace),
  parentId: n === trace ? null : id(trace),
  opName: 'chat',
  displayName: `call ${n}`,
  startedAt: 1_700_000_000_000 + n,
  endedAt: 1_700_000_000_500 + n,
  inputs: { question: `question ${n}` },
  output: `answer ${n}`,
  summary: { latencyMs: 500, usage: { m: { requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 } } },
  attributes: { env: 'test', tags: ['a'] },
});

it('ingest, retention (its scans and rollup drop) and deletion reach stored rows by their keys, never by walking a whole project', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'weft-statement-plans-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const storage = new SqliteStorage({ path: join(dir, 'weft.db') });
  onTestFinished(() => storage.close());
  const stop = recordPlans();
  let plans: Map<string, string[]>;
  try {
    const items = Array.from({ length: 20 }, (_, n) => complete(n, n - (n % 10)));
    await storage.ingestCalls('p', items);
    // Sent again: the update path of every statement.
    await storage.ingestCalls('p', items);
    const expired = await storage.lifecycle.expiredTraces('p', 1_800_000_000_000, undefined, 10);
    expect(expired.traceIds).toContain(id(0));
    await storage.lifecycle.keptTraces('p', expired.traceIds);
    await storage.lifecycle.measureTraces('p', [id(0)]);
    await storage.lifecycle.deleteTraces('p', [id(0)], { secure: false });
    await storage.monitoring.dropRollupsBefore('p', 1_800_000_000_000);
  } finally {
    plans = stop();
  }
  // A step that finds rows by the project alone steps through every row of
  // it: per batch or per deleted call, work that grows with the project.
  const walks = [...plans]
    .map(([sql, steps]) => ({
      sql: sql.replace(/\s+/g, ' ').trim(),
      walks: steps.filter(
        (step) => /\(project=\?\)$/.test(step) || /^SCAN (calls|call_|rollup_|feedback)/.test(step),
      ),
    }))
    .filter((plan) => plan.walks.length > 0);
  expect(walks).toEqual([]);
  expect(plans.size).toBeGreaterThan(10);
});
