import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SpanCallPut } from '../span-usage.js';
import { migrations } from './migrations.js';
import { SqliteStorage } from './sqlite-storage.js';

async function dbPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-sqlite-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'deeper', 'weft.db');
}

describe('SqliteStorage', () => {
  it('creates the folder, uses WAL and records each migration once', async () => {
    const path = await dbPath();
    const first = new SqliteStorage({ path });
    expect(first.schemaVersion).toBe(migrations.at(-1)?.version);
    await first.close();
    const second = new SqliteStorage({ path });
    expect(second.schemaVersion).toBe(migrations.at(-1)?.version);
    await second.close();

    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.prepare('SELECT version, name FROM weft_migrations').all()).toEqual(
      migrations.map(({ version, name }) => ({ version, name })),
    );
  });

  it('refuses use after close with WEFT_STORAGE_CLOSED, and closes idempotently', async () => {
    const storage = new SqliteStorage({ path: await dbPath() });
    await storage.close();
    await storage.close();
    await expect(storage.readCall('p', 'x')).rejects.toMatchObject({ code: 'WEFT_STORAGE_CLOSED' });
  });

  it('rolls back a whole batch when one item cannot be stored', async () => {
    const storage = new SqliteStorage({ path: ':memory:' });
    onTestFinished(() => storage.close());
    const id = '0190a5f0-0000-7000-8000-000000000001';
    const good = {
      type: 'start',
      id,
      traceId: id,
      parentId: null,
      opName: 'op',
      startedAt: 1,
      inputs: {},
    } as const;
    // A value msgpack cannot encode stands in for any storage-level failure.
    const bad = { ...good, id: '0190a5f0-0000-7000-8000-000000000002', inputs: { f: 1n << 70n } };
    await expect(storage.ingestCalls('p', [good, bad as never])).rejects.toMatchObject({
      code: 'WEFT_INVALID_REQUEST',
      path: 'items.1',
      index: 1,
    });
    expect(await storage.readCall('p', id)).toBeUndefined();
  });

  describe.each([
    { writerThread: false, label: 'in the batch transaction' },
    { writerThread: true, label: 'after the writer thread commits' },
  ])('OTLP span calls roll usage up their trace $label', ({ writerThread }) => {
    const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
    const usage = (inputTokens: number, outputTokens: number) => ({
      'gpt-4o': { requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    });
    const span = (n: number, parent: number | null, own?: ReturnType<typeof usage>): SpanCallPut => ({
      call: {
        type: 'complete',
        id: id(n),
        traceId: id(1),
        parentId: parent === null ? null : id(parent),
        opName: `span ${n}`,
        startedAt: n,
        inputs: {},
        endedAt: n + 10,
        summary: { latencyMs: 10, status: 'success', ...(own === undefined ? {} : { usage: own }) },
      },
      usageScope: 'self',
    });

    it('totals a parent over children sent in the same and in later batches, a re-sent child once', async () => {
      const storage = new SqliteStorage({ path: await dbPath(), writerThread });
      onTestFinished(() => storage.close());
      await storage.ingestSpanCalls('p', [span(1, null), span(2, 1, usage(100, 10))]);
      expect((await storage.readCall('p', id(1)))?.summary?.usage?.['gpt-4o']?.inputTokens).toBe(100);
      await storage.ingestSpanCalls('p', [span(3, 1, usage(50, 5)), span(2, 1, usage(100, 10))]);
      const parent = await storage.readCall('p', id(1));
      expect(parent?.summary?.usage?.['gpt-4o']).toMatchObject({
        requests: 2,
        inputTokens: 150,
        outputTokens: 15,
      });
      // The children keep their own usage.
      expect((await storage.readCall('p', id(3)))?.summary?.usage?.['gpt-4o']?.inputTokens).toBe(50);
    });
  });

  describe('with the writer thread', () => {
    const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
    const start = (n: number) =>
      ({
        type: 'start',
        id: id(n),
        traceId: id(n),
        parentId: null,
        opName: 'op',
        startedAt: n,
        inputs: { n },
      }) as const;

    it('makes a committed batch visible to reads on the main connection', async () => {
      const storage = new SqliteStorage({ path: await dbPath(), writerThread: true });
      onTestFinished(() => storage.close());
      await storage.ingestCalls('p', [start(1), start(2)]);
      expect(await storage.readCall('p', id(2))).toMatchObject({ inputs: { n: 2 }, status: 'running' });
    });

    it('rolls back a batch that fails in the writer, and keeps writing later batches', async () => {
      const storage = new SqliteStorage({ path: await dbPath(), writerThread: true });
      onTestFinished(() => storage.close());
      // A NULL id violates a NOT NULL constraint inside the writer's transaction.
      const broken = { ...start(4), id: null };
      await expect(storage.ingestCalls('p', [start(3), broken as never])).rejects.toMatchObject({
        code: 'WEFT_STORAGE_FAILED',
      });
      expect(await storage.readCall('p', id(3))).toBeUndefined();
      await storage.ingestCalls('p', [start(5)]);
      expect(await storage.readCall('p', id(5))).toBeDefined();
    });

    it('commits batches already handed over before close() finishes', async () => {
      const path = await dbPath();
      const storage = new SqliteStorage({ path, writerThread: true });
      const writes = [1, 2, 3].map((b) =>
        storage.ingestCalls(
          'p',
          Array.from({ length: 200 }, (_, i) => start(b * 1_000 + i)),
        ),
      );
      await storage.close();
      await Promise.all(writes);
      const again = new SqliteStorage({ path });
      onTestFinished(() => again.close());
      const page = await again.queryCalls({
        project: 'p',
        limit: 1_000,
        sort: { field: 'startedAt', direction: 'asc' },
      });
      expect(page.calls).toHaveLength(600);
    });
  });
});
