import type { Database, Statement } from 'better-sqlite3';
import type { LogEntry, StateDocument } from '../monitor-storage.js';

interface DocumentRow {
  project: string;
  kind: string;
  key: string;
  value: string;
  version: number;
  updated_at: number;
}

/** Monitoring documents and logs in SQLite (see `MonitorStateStorage` for the contract). */
export class SqliteMonitorStateStore {
  readonly #read: Statement;
  readonly #listAll: Statement;
  readonly #listProject: Statement;
  readonly #write: (
    project: string,
    kind: string,
    key: string,
    value: string,
    expected: number | undefined,
  ) => DocumentRow | undefined;
  readonly #delete: Statement;
  readonly #append: (project: string, kind: string, key: string, entries: readonly LogEntry[]) => void;
  readonly #readLog: Statement;
  readonly #trim: Statement;

  constructor(db: Database) {
    const columns = 'project, kind, key, value, version, updated_at';
    this.#read = db.prepare(
      `SELECT ${columns} FROM monitor_documents WHERE project = ? AND kind = ? AND key = ?`,
    );
    this.#listAll = db.prepare(
      `SELECT ${columns} FROM monitor_documents WHERE kind = ? ORDER BY project, key`,
    );
    this.#listProject = db.prepare(
      `SELECT ${columns} FROM monitor_documents WHERE kind = ? AND project = ? ORDER BY key`,
    );
    const upsert = db.prepare(`INSERT INTO monitor_documents (${columns}) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (project, kind, key) DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = excluded.updated_at`);
    // One transaction: the version read and the write cannot interleave with another write.
    this.#write = db.transaction((project, kind, key, value, expected) => {
      const stored = this.#read.get(project, kind, key) as DocumentRow | undefined;
      const version = stored?.version ?? 0;
      if (expected !== undefined && expected !== version) return undefined;
      const row: DocumentRow = { project, kind, key, value, version: version + 1, updated_at: Date.now() };
      upsert.run(project, kind, key, value, row.version, row.updated_at);
      return row;
    });
    this.#delete = db.prepare('DELETE FROM monitor_documents WHERE project = ? AND kind = ? AND key = ?');
    const append = db.prepare(
      'INSERT INTO monitor_log (project, kind, key, at, value) VALUES (?, ?, ?, ?, ?)',
    );
    this.#append = db.transaction((project, kind, key, entries: readonly LogEntry[]) => {
      for (const entry of entries) append.run(project, kind, key, entry.at, JSON.stringify(entry.value));
    });
    this.#readLog =
      db.prepare(`SELECT at, value FROM monitor_log WHERE project = ? AND kind = ? AND key = ? AND at < ?
      ORDER BY at DESC, seq DESC LIMIT ?`);
    this.#trim = db.prepare('DELETE FROM monitor_log WHERE project = ? AND kind = ? AND key = ? AND at < ?');
  }

  read<T>(project: string, kind: string, key: string): StateDocument<T> | undefined {
    const row = this.#read.get(project, kind, key) as DocumentRow | undefined;
    return row === undefined ? undefined : documentOf<T>(row);
  }

  list<T>(kind: string, project: string | undefined): StateDocument<T>[] {
    const rows = (
      project === undefined ? this.#listAll.all(kind) : this.#listProject.all(kind, project)
    ) as DocumentRow[];
    return rows.map((row) => documentOf<T>(row));
  }

  write<T>(
    project: string,
    kind: string,
    key: string,
    value: T,
    expected?: number,
  ): StateDocument<T> | undefined {
    const row = this.#write(project, kind, key, JSON.stringify(value), expected);
    return row === undefined ? undefined : documentOf<T>(row);
  }

  delete(project: string, kind: string, key: string): boolean {
    return this.#delete.run(project, kind, key).changes > 0;
  }

  append(project: string, kind: string, key: string, entries: readonly LogEntry[]): void {
    this.#append(project, kind, key, entries);
  }

  readLog<T>(project: string, kind: string, key: string, limit: number, before?: number): LogEntry<T>[] {
    const rows = this.#readLog.all(project, kind, key, before ?? Number.MAX_VALUE, limit) as {
      at: number;
      value: string;
    }[];
    return rows.map((row) => ({ at: row.at, value: JSON.parse(row.value) as T }));
  }

  trim(project: string, kind: string, key: string, beforeMs: number): void {
    this.#trim.run(project, kind, key, beforeMs);
  }
}

function documentOf<T>(row: DocumentRow): StateDocument<T> {
  return {
    project: row.project,
    kind: row.kind,
    key: row.key,
    value: JSON.parse(row.value) as T,
    version: row.version,
    updatedAt: row.updated_at,
  };
}
