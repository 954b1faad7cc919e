import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { WalCheckpointer } from './wal-checkpointer.js';

/** A WAL database whose own connection never checkpoints, so only the checkpointer can copy pages back. */
function walDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)');
  return db;
}

const fill = (db: Database.Database, rows: number) => {
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(Buffer.alloc(3000, i % 251));
  })();
};

describe('WalCheckpointer', () => {
  it('copies committed pages into the database file on its own thread, and again for commits made meanwhile', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'weft-checkpointer-')), 'w.db');
    const db = walDatabase(path);
    const checkpointer = new WalCheckpointer({ path });
    try {
      fill(db, 200);
      const before = statSync(path).size;
      checkpointer.committed();
      // Committed while the first checkpoint may still run: one more follows it.
      fill(db, 200);
      checkpointer.committed();
      await checkpointer.idle();
      const pages = db.pragma('page_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      expect(before).toBeLessThan(pages * pageSize);
      expect(statSync(path).size).toBe(pages * pageSize);
      expect(checkpointer.failures).toBe(0);
      // Nothing left for a checkpoint to copy.
      const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)') as [
        { log: number; checkpointed: number },
      ];
      expect(checkpointed).toBe(log);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('closes after the running checkpoint, and ignores commits once closed', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'weft-checkpointer-')), 'w.db');
    const db = walDatabase(path);
    const checkpointer = new WalCheckpointer({ path });
    fill(db, 100);
    checkpointer.committed();
    await checkpointer.close();
    await checkpointer.close();
    const pages = db.pragma('page_count', { simple: true }) as number;
    expect(statSync(path).size).toBe(pages * (db.pragma('page_size', { simple: true }) as number));
    fill(db, 100);
    checkpointer.committed();
    await checkpointer.idle();
    expect(statSync(path).size).toBeLessThan((db.pragma('page_count', { simple: true }) as number) * 4096);
    db.close();
  });
});
