import type { ClickHouseSettings } from '@clickhouse/client';
import type { ObjectLabel, ObjectVersion } from '@weft/protocol';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { type ClickHouseObjectStore, compareBytes } from './object-store.js';
import { sqlLiteral } from './sql-literal.js';
import { nextSeq } from './write-sequence.js';

interface LabelRow {
  label: string;
  digest: string;
  updated_at: number;
}

/**
 * Labels of object names (`production` → a version) in ClickHouse. A label
 * points at a DIGEST (versions are numbered at read time, see
 * `ClickHouseObjectStore`); moving it writes a new row, and reads keep the
 * newest `seq` per label, so the answer never waits for a merge.
 */
export class ClickHouseLabelStore {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #insertSettings: ClickHouseSettings;
  readonly #objects: ClickHouseObjectStore;

  constructor({
    connection,
    table,
    insertSettings,
    objects,
  }: {
    connection: ClickHouseConnection;
    table: string;
    insertSettings: ClickHouseSettings;
    objects: ClickHouseObjectStore;
  }) {
    this.#connection = connection;
    this.#table = table;
    this.#insertSettings = insertSettings;
    this.#objects = objects;
  }

  /** Points `label` at a version (by number or digest); `undefined` when that version does not exist. */
  async set(
    project: string,
    name: string,
    label: string,
    version: { version: number } | { digest: string },
  ): Promise<ObjectLabel | undefined> {
    const versions = await this.#objects.versions(project, name);
    const target = versions.find((v) =>
      'version' in version ? v.version === version.version : v.digest === version.digest,
    );
    if (target === undefined) return undefined;
    const updatedAt = Date.now();
    await this.#connection.insert(
      this.#table,
      [{ project, name, label, digest: target.digest, updated_at: updatedAt, seq: nextSeq() }],
      this.#insertSettings,
    );
    return { label, version: target.version, digest: target.digest, updatedAt };
  }

  /** The digest `label` points at, or `undefined` when the label is unknown. */
  async digestOf(project: string, name: string, label: string): Promise<string | undefined> {
    return (await this.#rows(project, name, label))[0]?.digest;
  }

  /** The labels of a name, by label, each with the version number its digest has now. */
  async list(project: string, name: string): Promise<ObjectLabel[]> {
    const [rows, versions] = await Promise.all([
      this.#rows(project, name),
      this.#objects.versions(project, name),
    ]);
    const byDigest = new Map<string, ObjectVersion>(versions.map((v) => [v.digest, v]));
    return rows.flatMap((row) => {
      const version = byDigest.get(row.digest);
      return version === undefined
        ? []
        : [
            {
              label: row.label,
              version: version.version,
              digest: row.digest,
              updatedAt: Number(row.updated_at),
            },
          ];
    });
  }

  async #rows(project: string, name: string, label?: string): Promise<LabelRow[]> {
    const one = label === undefined ? '' : ` AND label = ${sqlLiteral(label)}`;
    const rows = await this.#connection.rows<LabelRow>(`
      SELECT label, argMax(digest, seq) AS digest, argMax(updated_at, seq) AS updated_at FROM ${this.#table}
      WHERE project = ${sqlLiteral(project)} AND name = ${sqlLiteral(name)}${one} GROUP BY label`);
    // Labels in UTF-8 byte order (the contract's "Orders of lists").
    return rows.sort((a, b) => compareBytes(a.label, b.label));
  }
}
