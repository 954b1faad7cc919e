import type { Database, Statement } from 'better-sqlite3';

/** Content-addressed file bytes, stored once per (project, digest) as SQLite blobs. */
export class SqliteFileStore {
  readonly #insert: Statement;
  readonly #read: Statement;

  constructor(db: Database) {
    this.#insert = db.prepare(
      'INSERT OR IGNORE INTO files (project, digest, size, bytes, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#read = db.prepare('SELECT bytes FROM files WHERE project = ? AND digest = ?').pluck();
  }

  put(project: string, digest: string, bytes: Uint8Array): { created: boolean } {
    const { changes } = this.#insert.run(project, digest, bytes.byteLength, bytes, Date.now());
    return { created: changes > 0 };
  }

  read(project: string, digest: string): Uint8Array | undefined {
    return this.#read.get(project, digest) as Uint8Array | undefined;
  }
}
