import type { Database, Statement } from 'better-sqlite3';
import type { ObjectLabel } from '@weft/protocol';

interface LabelRow {
  label: string;
  version: number;
  digest: string;
  updated_at: number;
}

/** Labels of object names (`production` → version 3) in SQLite; one version per (name, label). */
export class SqliteLabelStore {
  readonly #set: Statement;
  readonly #list: Statement;
  readonly #read: Statement;
  readonly #versionOf: Statement;

  constructor(db: Database) {
    this.#set =
      db.prepare(`INSERT INTO object_labels (project, name, label, version, updated_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (project, name, label) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`);
    const columns = 'l.label, l.version, o.digest, l.updated_at';
    const join =
      'FROM object_labels l JOIN objects o ON o.project = l.project AND o.name = l.name AND o.version = l.version';
    this.#list = db.prepare(`SELECT ${columns} ${join} WHERE l.project = ? AND l.name = ? ORDER BY l.label`);
    this.#read = db.prepare(`SELECT ${columns} ${join} WHERE l.project = ? AND l.name = ? AND l.label = ?`);
    this.#versionOf = db.prepare(
      'SELECT version FROM objects WHERE project = ? AND name = ? AND (version = ? OR digest = ?)',
    );
  }

  /**
   * Points `label` at a version (by number or digest). Returns the label, or
   * `undefined` when that version does not exist.
   */
  set(
    project: string,
    name: string,
    label: string,
    version: { version: number } | { digest: string },
  ): ObjectLabel | undefined {
    const found = this.#versionOf.get(
      project,
      name,
      'version' in version ? version.version : -1,
      'digest' in version ? version.digest : null,
    ) as { version: number } | undefined;
    if (found === undefined) return undefined;
    this.#set.run(project, name, label, found.version, Date.now());
    return this.read(project, name, label);
  }

  read(project: string, name: string, label: string): ObjectLabel | undefined {
    const row = this.#read.get(project, name, label) as LabelRow | undefined;
    return row === undefined ? undefined : labelFromRow(row);
  }

  list(project: string, name: string): ObjectLabel[] {
    return (this.#list.all(project, name) as LabelRow[]).map(labelFromRow);
  }
}

function labelFromRow(row: LabelRow): ObjectLabel {
  return { label: row.label, version: row.version, digest: row.digest, updatedAt: row.updated_at };
}
