import type { Database, Statement } from 'better-sqlite3';
import {
  formatRef,
  type ObjectCreateResponse,
  type ObjectKind,
  type ObjectListResponse,
  type ObjectRead,
  type ObjectVersion,
} from '@weft/protocol';
import type { ObjectPut, VersionSelector } from '../storage.js';
import type { SqliteContentPins } from './content-pins.js';
import type { SqliteLabelStore } from './label-store.js';

interface ObjectRow {
  project: string;
  name: string;
  version: number;
  digest: string;
  kind: ObjectKind;
  created_at: number;
  value?: string;
}

const VERSION_COLUMNS = 'project, name, version, digest, kind, created_at';

/** Versioned, content-addressed objects in SQLite: versions count from 1 per (project, name). */
export class SqliteObjectStore {
  readonly #byDigest: Statement;
  readonly #byVersion: Statement;
  readonly #latest: Statement;
  readonly #versions: Statement;
  readonly #list: Statement;
  readonly #put: (object: ObjectPut) => ObjectCreateResponse;
  readonly #labels: SqliteLabelStore;

  constructor(db: Database, { labels, pins }: { labels: SqliteLabelStore; pins: SqliteContentPins }) {
    this.#labels = labels;
    this.#byDigest = db.prepare(
      `SELECT ${VERSION_COLUMNS}, value FROM objects WHERE project = ? AND name = ? AND digest = ?`,
    );
    this.#byVersion = db.prepare(
      `SELECT ${VERSION_COLUMNS}, value FROM objects WHERE project = ? AND name = ? AND version = ?`,
    );
    this.#latest = db.prepare(
      `SELECT ${VERSION_COLUMNS}, value FROM objects WHERE project = ? AND name = ? ORDER BY version DESC LIMIT 1`,
    );
    this.#versions = db.prepare(
      `SELECT ${VERSION_COLUMNS} FROM objects WHERE project = ? AND name = ? ORDER BY version`,
    );
    this.#list = db.prepare(`
      SELECT o.name, o.kind, o.digest AS latest_digest, o.version AS version_count, o.created_at AS updated_at
      FROM objects o
      JOIN (SELECT name, MAX(version) AS v FROM objects WHERE project = ? GROUP BY name) m
        ON o.name = m.name AND o.version = m.v
      WHERE o.project = ?
      ORDER BY o.name`);
    const nextVersion = db.prepare(
      'SELECT COALESCE(MAX(version), 0) + 1 AS v FROM objects WHERE project = ? AND name = ?',
    );
    const insert = db.prepare(
      'INSERT INTO objects (project, name, version, digest, kind, value, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    // Read-then-insert inside one transaction: better-sqlite3 is synchronous,
    // so no other write interleaves and version numbers never collide.
    this.#put = db.transaction((object: ObjectPut): ObjectCreateResponse => {
      const existing = this.#byDigest.get(object.project, object.name, object.digest) as
        | ObjectRow
        | undefined;
      if (existing) return { ...versionFromRow(existing), created: false };
      const version = (nextVersion.get(object.project, object.name) as { v: number }).v;
      const createdAt = Date.now();
      insert.run(
        object.project,
        object.name,
        version,
        object.digest,
        object.kind,
        object.canonicalValue,
        createdAt,
      );
      pins.pin(object.project, object.canonicalValue);
      return {
        ...versionFromRow({ ...object, version, created_at: createdAt }),
        created: true,
      };
    });
  }

  put(object: ObjectPut): ObjectCreateResponse {
    return this.#put(object);
  }

  read(project: string, name: string, selector: VersionSelector): ObjectRead | undefined {
    if ('label' in selector) {
      const label = this.#labels.read(project, name, selector.label);
      return label === undefined ? undefined : this.read(project, name, { version: label.version });
    }
    const row = (
      'digest' in selector
        ? this.#byDigest.get(project, name, selector.digest)
        : 'version' in selector
          ? this.#byVersion.get(project, name, selector.version)
          : this.#latest.get(project, name)
    ) as ObjectRow | undefined;
    if (row?.value === undefined) return undefined;
    return { ...versionFromRow(row), value: JSON.parse(row.value) };
  }

  versions(project: string, name: string): ObjectVersion[] {
    return (this.#versions.all(project, name) as ObjectRow[]).map(versionFromRow);
  }

  list(project: string): ObjectListResponse['objects'] {
    const rows = this.#list.all(project, project) as {
      name: string;
      kind: ObjectKind;
      latest_digest: string;
      version_count: number;
      updated_at: number;
    }[];
    return rows.map((r) => ({
      name: r.name,
      kind: r.kind,
      latestDigest: r.latest_digest,
      versionCount: r.version_count,
      updatedAt: r.updated_at,
    }));
  }
}

function versionFromRow(row: ObjectRow): ObjectVersion {
  return {
    project: row.project,
    name: row.name,
    kind: row.kind,
    digest: row.digest,
    version: row.version,
    createdAt: row.created_at,
    ref: formatRef({ kind: row.kind, project: row.project, name: row.name, digest: row.digest, path: [] }),
  };
}
