import type { ClickHouseSettings } from '@clickhouse/client';
import type { LogEntry, StateDocument } from '../monitor-storage.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { sqlLiteral } from './sql-literal.js';
import { nextSeq } from './write-sequence.js';

interface DocumentRow {
  r_project: string;
  r_kind: string;
  r_key: string;
  r_value: string;
  r_version: string;
  r_updated_at: number;
}

/**
 * Monitoring documents and logs in ClickHouse (see `MonitorStateStorage`).
 * A document write is a new row with the next version; reads keep the
 * highest version per key (a deletion is a tombstone row), so they never
 * depend on merges. The version check of `write` is a read then an insert:
 * not atomic across replicas (the contract says so).
 */
export class ClickHouseMonitorStateStore {
  readonly #connection: ClickHouseConnection;
  readonly #documents: string;
  readonly #log: string;
  readonly #logLocal: string;
  readonly #insertSettings: ClickHouseSettings;

  constructor(options: {
    connection: ClickHouseConnection;
    documents: string;
    log: string;
    /** The log table each shard holds (mutations name it). */
    logLocal: string;
    insertSettings: ClickHouseSettings;
  }) {
    this.#connection = options.connection;
    this.#documents = options.documents;
    this.#log = options.log;
    this.#logLocal = options.logLocal;
    this.#insertSettings = options.insertSettings;
  }

  async read<T>(project: string, kind: string, key: string): Promise<StateDocument<T> | undefined> {
    const [row] = await this.#select(
      `project = ${sqlLiteral(project)} AND kind = ${sqlLiteral(kind)} AND key = ${sqlLiteral(key)}`,
    );
    return row === undefined ? undefined : documentOf<T>(row);
  }

  async list<T>(kind: string, project: string | undefined): Promise<StateDocument<T>[]> {
    const where = [`kind = ${sqlLiteral(kind)}`];
    if (project !== undefined) where.push(`project = ${sqlLiteral(project)}`);
    return (await this.#select(where.join(' AND '))).map((row) => documentOf<T>(row));
  }

  async write<T>(
    project: string,
    kind: string,
    key: string,
    value: T,
    expected: number | undefined,
  ): Promise<StateDocument<T> | undefined> {
    const { current, highest } = await this.#version(project, kind, key);
    if (expected !== undefined && expected !== current) return undefined;
    const updatedAt = Date.now();
    const text = JSON.stringify(value);
    const version = highest + 1;
    await this.#connection.insert(
      this.#documents,
      [{ project, kind, key, value: text, version, deleted: 0, updated_at: updatedAt }],
      this.#insertSettings,
    );
    return { project, kind, key, value: JSON.parse(text) as T, version, updatedAt };
  }

  async delete(project: string, kind: string, key: string): Promise<boolean> {
    const { current, highest } = await this.#version(project, kind, key);
    if (current === 0) return false;
    await this.#connection.insert(
      this.#documents,
      [{ project, kind, key, value: '', version: highest + 1, deleted: 1, updated_at: Date.now() }],
      this.#insertSettings,
    );
    return true;
  }

  async append(project: string, kind: string, key: string, entries: readonly LogEntry[]): Promise<void> {
    await this.#connection.insert(
      this.#log,
      entries.map((entry) => ({
        project,
        kind,
        key,
        at: entry.at,
        seq: nextSeq(),
        value: JSON.stringify(entry.value),
      })),
      this.#insertSettings,
    );
  }

  async readLog<T>(
    project: string,
    kind: string,
    key: string,
    limit: number,
    before?: number,
  ): Promise<LogEntry<T>[]> {
    const rows = await this.#connection.rows<{ r_at: number; r_value: string }>(`
      SELECT at AS r_at, value AS r_value FROM ${this.#log}
      WHERE project = ${sqlLiteral(project)} AND kind = ${sqlLiteral(kind)} AND key = ${sqlLiteral(key)}
        ${before === undefined ? '' : `AND at < ${sqlLiteral(before)}`}
      ORDER BY at DESC, seq DESC LIMIT ${sqlLiteral(limit)}`);
    return rows.map((row) => ({ at: Number(row.r_at), value: JSON.parse(row.r_value) as T }));
  }

  async trim(project: string, kind: string, key: string, beforeMs: number): Promise<void> {
    await this.#connection.commandOnEveryHost(
      `ALTER TABLE ${this.#logLocal} DELETE WHERE project = ${sqlLiteral(project)} AND kind = ${sqlLiteral(kind)} AND key = ${sqlLiteral(key)} AND at < ${sqlLiteral(beforeMs)}`,
    );
  }

  /**
   * The version of a stored document (`current`, 0 when there is none or it
   * was deleted) and the highest version its key ever had: a new row must
   * outrank the tombstone of a deleted one.
   */
  async #version(project: string, kind: string, key: string): Promise<{ current: number; highest: number }> {
    const [row] = await this.#connection.rows<{ r_version: string; r_deleted: number }>(`
      SELECT max(version) AS r_version, argMax(deleted, version) AS r_deleted FROM ${this.#documents}
      WHERE project = ${sqlLiteral(project)} AND kind = ${sqlLiteral(kind)} AND key = ${sqlLiteral(key)}`);
    const highest = Number(row?.r_version ?? 0);
    return { current: Number(row?.r_deleted ?? 0) === 1 ? 0 : highest, highest };
  }

  async #select(where: string): Promise<DocumentRow[]> {
    return this.#connection.rows<DocumentRow>(`
      SELECT project AS r_project, kind AS r_kind, key AS r_key, argMax(value, version) AS r_value,
        max(version) AS r_version, argMax(updated_at, version) AS r_updated_at
      FROM ${this.#documents} WHERE ${where}
      GROUP BY r_project, r_kind, r_key HAVING argMax(deleted, version) = 0
      ORDER BY r_project, r_key`);
  }
}

function documentOf<T>(row: DocumentRow): StateDocument<T> {
  return {
    project: row.r_project,
    kind: row.r_kind,
    key: row.r_key,
    value: JSON.parse(row.r_value) as T,
    version: Number(row.r_version),
    updatedAt: Number(row.r_updated_at),
  };
}
