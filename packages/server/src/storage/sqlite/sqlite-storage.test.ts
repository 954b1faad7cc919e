import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
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
    expect(first.schemaVersion).toBe(1);
    await first.close();
    const second = new SqliteStorage({ path });
    expect(second.schemaVersion).toBe(1);
    await second.close();

    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.prepare('SELECT version, name FROM weft_migrations').all()).toEqual([
      { version: 1, name: 'calls, objects, tables, files' },
    ]);
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
    const good = { type: 'start', id, traceId: id, parentId: null, opName: 'op', startedAt: 1, inputs: {} } as const;
    // A value msgpack cannot encode stands in for any storage-level failure.
    const bad = { ...good, id: '0190a5f0-0000-7000-8000-000000000002', inputs: { f: 1n << 70n } };
    await expect(storage.ingestCalls('p', [good, bad as never])).rejects.toThrow();
    expect(await storage.readCall('p', id)).toBeUndefined();
  });
});
