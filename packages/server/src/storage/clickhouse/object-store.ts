import type { ClickHouseSettings } from '@clickhouse/client';
import {
  formatRef,
  type ObjectCreateResponse,
  type ObjectKind,
  type ObjectListResponse,
  type ObjectRead,
  type ObjectVersion,
} from '@weft/protocol';
import type { ObjectPut, VersionSelector } from '../storage.js';
import type { ClickHouseConnection, ClickHouseTableTarget } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';

interface VersionRow {
  digest: string;
  kind: ObjectKind;
  first_at: number;
}

/**
 * Versioned, content-addressed objects. ClickHouse has no transactions to
 * hand out "next version" numbers, so versions are not stored: a name's
 * versions are its distinct digests in the order they were first stored
 * (earliest `created_at`, then digest), numbered from 1. Every replica
 * computes the same numbers from the same rows; a digest stored twice (a
 * retry, two replicas) is still one version.
 */
export class ClickHouseObjectStore {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #insertSettings: ClickHouseSettings;

  constructor({ connection, table, insertSettings }: ClickHouseTableTarget) {
    this.#connection = connection;
    this.#table = table;
    this.#insertSettings = insertSettings;
  }

  async put(object: ObjectPut): Promise<ObjectCreateResponse> {
    const before = await this.#versionRows(object.project, object.name);
    const known = before.findIndex((v) => v.digest === object.digest);
    if (known >= 0) return { ...versionOf(object.project, object.name, before, known), created: false };
    await this.#connection.insert(
      this.#table,
      [
        {
          project: object.project,
          name: object.name,
          digest: object.digest,
          kind: object.kind,
          value: object.canonicalValue,
          created_at: Date.now(),
        },
      ],
      this.#insertSettings,
    );
    const after = await this.#versionRows(object.project, object.name);
    const index = after.findIndex((v) => v.digest === object.digest);
    return { ...versionOf(object.project, object.name, after, index), created: true };
  }

  async read(project: string, name: string, selector: VersionSelector): Promise<ObjectRead | undefined> {
    const versions = await this.#versionRows(project, name);
    const index =
      'digest' in selector
        ? versions.findIndex((v) => v.digest === selector.digest)
        : 'version' in selector
          ? selector.version - 1
          : versions.length - 1;
    const row = versions[index];
    if (row === undefined) return undefined;
    const [stored] = await this.#connection.rows<{ value: string }>(
      `SELECT any(value) AS value FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND name = ${sqlLiteral(name)} AND digest = ${sqlLiteral(row.digest)}`,
    );
    if (stored === undefined) return undefined;
    return { ...versionOf(project, name, versions, index), value: JSON.parse(stored.value) };
  }

  async versions(project: string, name: string): Promise<ObjectVersion[]> {
    const rows = await this.#versionRows(project, name);
    return rows.map((_, index) => versionOf(project, name, rows, index));
  }

  async list(project: string): Promise<ObjectListResponse['objects']> {
    const rows = await this.#connection.rows<VersionRow & { name: string }>(`
      SELECT name, digest, any(kind) AS kind, min(created_at) AS first_at FROM ${this.#table}
      WHERE project = ${sqlLiteral(project)} GROUP BY name, digest ORDER BY name, first_at, digest`);
    const byName = new Map<string, VersionRow[]>();
    for (const row of rows) {
      const list = byName.get(row.name) ?? [];
      list.push(row);
      byName.set(row.name, list);
    }
    // Names in UTF-8 byte order (the contract's "Orders of lists").
    return [...byName.keys()].sort(compareBytes).map((name) => {
      const versions = byName.get(name) as VersionRow[];
      const latest = versions.at(-1) as VersionRow;
      return {
        name,
        kind: latest.kind,
        latestDigest: latest.digest,
        versionCount: versions.length,
        updatedAt: Number(latest.first_at),
      };
    });
  }

  /** Distinct digests of a name, oldest first (see the class comment). */
  async #versionRows(project: string, name: string): Promise<VersionRow[]> {
    return this.#connection.rows<VersionRow>(`
      SELECT digest, any(kind) AS kind, min(created_at) AS first_at FROM ${this.#table}
      WHERE project = ${sqlLiteral(project)} AND name = ${sqlLiteral(name)}
      GROUP BY digest ORDER BY first_at, digest`);
  }
}

function versionOf(project: string, name: string, rows: readonly VersionRow[], index: number): ObjectVersion {
  const row = rows[index] as VersionRow;
  return {
    project,
    name,
    kind: row.kind,
    digest: row.digest,
    version: index + 1,
    createdAt: Number(row.first_at),
    ref: formatRef({ kind: row.kind, project, name, digest: row.digest, path: [] }),
  };
}

/** Orders strings by their UTF-8 bytes, the order the `Storage` contract lists names in. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
