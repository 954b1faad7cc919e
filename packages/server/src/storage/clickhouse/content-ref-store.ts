import type { ClickHouseSettings } from '@clickhouse/client';
import { type ContentRefKey, contentRefsOfJson, valueRefsOf } from '../content-refs.js';
import type { StoredValue } from '../stored-value.js';
import type { ClickHouseConnection, ClickHouseTableTarget } from './clickhouse-connection.js';
import { inList, sqlLiteral } from './sql-literal.js';

/** Keys per `IN (…)` list. */
const CHUNK = 1_000;

/** A row of `content_refs`: `source` refers to (`kind`, `target`). */
export interface ContentRefRow {
  kind: string;
  target: string;
  source: string;
}

/**
 * What calls, values, objects and tables refer to, in ClickHouse
 * (`content_refs`, see `LifecycleStorage`): one row per (kind, target,
 * source), where the source is `c:<call id>`, `v:<digest>`, or `p` (a pin:
 * an object or table row, never removed). Written with what refers; a
 * retry writes the same key again, which merges away, and every read
 * counts distinct sources.
 */
export class ClickHouseContentRefStore {
  readonly #connection: ClickHouseConnection;
  readonly #table: string;
  readonly #insertSettings: ClickHouseSettings;

  constructor({ connection, table, insertSettings }: ClickHouseTableTarget) {
    this.#connection = connection;
    this.#table = table;
    this.#insertSettings = insertSettings;
  }

  /** The table's qualified name. */
  get table(): string {
    return this.#table;
  }

  /** Records that each source refers to its keys (`c:` keys, calls named by a call or value, are left out). */
  async put(
    project: string,
    refs: readonly { source: string; keys: readonly ContentRefKey[] }[],
  ): Promise<void> {
    await this.#connection.insert(
      this.#table,
      ClickHouseContentRefStore.rows(project, refs),
      this.#insertSettings,
    );
  }

  /** The columns of the rows {@link ClickHouseContentRefStore.rows} makes. */
  static readonly COLUMNS = ['project', 'kind', 'target', 'source', 'created_at'] as const;

  /** The rows `put` inserts (for a caller that inserts several projects' rows at once). */
  static rows(
    project: string,
    refs: readonly { source: string; keys: readonly ContentRefKey[] }[],
  ): Record<string, string | number>[] {
    const now = Date.now();
    return refs.flatMap(({ source, keys }) =>
      keys
        .filter((key) => source === 'p' || !key.startsWith('c:'))
        .map((key) => ({ project, kind: key.slice(0, 1), target: key.slice(2), source, created_at: now })),
    );
  }

  /** What new values refer to (their prev, nested markers, files). */
  async putValues(project: string, values: readonly StoredValue[]): Promise<void> {
    await this.put(
      project,
      values.map((v) => ({ source: `v:${v.digest}`, keys: valueRefsOf(v.prev, v.bytes) })),
    );
  }

  /** Pins what JSON content (an object, a table row) names: its files, and the calls dataset rows were made from. */
  async pin(project: string, canonicalValues: readonly string[]): Promise<void> {
    const keys = new Set<ContentRefKey>();
    for (const text of canonicalValues) {
      for (const key of contentRefsOfJson(text) ?? []) if (!key.startsWith('v:')) keys.add(key);
    }
    if (keys.size > 0) await this.put(project, [{ source: 'p', keys: [...keys] }]);
  }

  /** Every row whose source is one of `sources`. */
  async bySources(project: string, sources: readonly string[]): Promise<ContentRefRow[]> {
    const out: ContentRefRow[] = [];
    for (let i = 0; i < sources.length; i += CHUNK) {
      out.push(
        ...(await this.#connection.rows<ContentRefRow>(
          `SELECT DISTINCT kind, target, source FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND source IN ${inList(sources.slice(i, i + CHUNK))}`,
        )),
      );
    }
    return out;
  }

  /** How many distinct sources refer to each key (keys nothing refers to are absent). */
  async referrers(project: string, keys: readonly ContentRefKey[]): Promise<Map<ContentRefKey, number>> {
    const out = new Map<ContentRefKey, number>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const tuples = keys
        .slice(i, i + CHUNK)
        .map((key) => `(${sqlLiteral(key.slice(0, 1))}, ${sqlLiteral(key.slice(2))})`)
        .join(', ');
      const rows = await this.#connection.rows<{ kind: string; target: string; n: number | string }>(
        `SELECT kind, target, uniqExact(source) AS n FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND (kind, target) IN (${tuples}) GROUP BY kind, target`,
      );
      for (const row of rows) out.set(`${row.kind}:${row.target}` as ContentRefKey, Number(row.n));
    }
    return out;
  }

  /** The calls among `ids` that dataset rows were made from. */
  async pinnedCalls(project: string, ids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.#connection.rows<{ target: string }>(
        `SELECT DISTINCT target FROM ${this.#table} WHERE project = ${sqlLiteral(project)} AND kind = 'c' AND target IN ${inList(ids.slice(i, i + CHUNK))}`,
      );
      for (const row of rows) out.add(row.target);
    }
    return out;
  }
}
