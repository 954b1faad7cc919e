import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallItem } from '@weft/protocol';
import Database from 'better-sqlite3';
import { expect, it, onTestFinished } from 'vitest';
import { SqliteStorage } from './sqlite-storage.js';

const HOUR = 3_600_000;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % HOUR);
const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const call = (n: number, startedAt: number): CallItem => ({
  type: 'complete',
  id: id(n),
  traceId: id(n),
  parentId: null,
  opName: n % 2 === 0 ? 'chat' : 'embed',
  displayName: `call ${n}`,
  startedAt,
  endedAt: startedAt + 500,
  inputs: {},
  output: null,
  summary: { latencyMs: 500 },
  attributes: { tags: [`t${n % 3}`] },
});

/** The rollup rows and facts of project `p`, as (table, level, t) and fact ids. */
function stored(path: string): { buckets: string[]; facts: string[] } {
  const db = new Database(path, { readonly: true });
  try {
    const buckets = db
      .prepare(
        `SELECT 'call ' || level || ' ' || t FROM call_rollups WHERE project = 'p'
         UNION SELECT 'feedback ' || level || ' ' || t FROM feedback_rollups WHERE project = 'p' ORDER BY 1`,
      )
      .pluck()
      .all() as string[];
    const facts = db
      .prepare("SELECT id FROM rollup_facts WHERE project = 'p' ORDER BY id")
      .pluck()
      .all() as string[];
    return { buckets, facts };
  } finally {
    db.close();
  }
}

it('drops the rollup buckets that ended before the cutoff, and the facts of calls started before it, keeping the rest', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'weft-rollup-retention-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'weft.db');
  const storage = new SqliteStorage({ path });
  onTestFinished(() => storage.close());
  // Calls every 7 minutes over 3 hours, each with feedback.
  const calls = Array.from({ length: 26 }, (_, n) => call(n, T0 + n * 7 * 60_000 + 1_000));
  await storage.ingestCalls('p', calls);
  await storage.putFeedback(
    'p',
    calls.map((c, n) => ({
      type: 'feedback' as const,
      id: id(1_000 + n),
      callId: c.id,
      createdAt: T0 + 4 * HOUR,
      name: 'thumbs',
      value: n % 2 === 0,
    })),
  );
  const before = stored(path);
  // Inside the second hour and inside a minute: a bucket of each level ends exactly at or after it.
  const cutoff = T0 + HOUR + 42 * 60_000 + 30_000;
  const width = (level: string) => (level === 'm' ? 60_000 : HOUR);
  const kept = before.buckets.filter((key) => {
    const [, level, t] = key.split(' ') as [string, string, string];
    return Number(t) + width(level) > cutoff;
  });
  expect(kept.length).toBeGreaterThan(0);
  expect(kept.length).toBeLessThan(before.buckets.length);
  expect(before.buckets.some((key) => key.startsWith('feedback '))).toBe(true);

  await storage.monitoring.dropRollupsBefore('p', cutoff);

  const after = stored(path);
  expect(after.buckets).toEqual(kept);
  expect(after.facts).toEqual(
    calls
      .filter((c) => c.type === 'complete' && c.startedAt >= cutoff)
      .map((c) => c.id)
      .sort(),
  );
});
