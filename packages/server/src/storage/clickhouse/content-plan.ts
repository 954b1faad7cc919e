import { type ContentRefKey, valueRefsOf } from '../content-refs.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import type { ClickHouseContentRefStore, ContentRefRow } from './content-ref-store.js';
import { inList, sqlLiteral } from './sql-literal.js';

/** A value that goes, as stored (kept until the deletion is checked, see `ContentPlanner`). */
export interface GoneValue {
  digest: string;
  isArray: number;
  prev: string;
  bytesBase64: string;
  refs: ContentRefKey[];
}

/** What a deletion removes besides its calls: values and files nothing else refers to. */
export interface ContentPlan {
  values: Map<string, GoneValue>;
  /** File digest → its bytes (base64), kept until the deletion is checked. */
  files: Map<string, string>;
}

/** Keys per `IN (…)` list. */
const CHUNK = 1_000;

/**
 * Finds the values and files nothing would refer to once `leaving` (the
 * sources about to go: the deleted calls' `c:<id>`) is gone, from the
 * candidates they referred to, transitively through values:
 *
 *   a key is kept when more distinct sources refer to it than leave;
 *   a value that goes leaves too (its `v:<digest>` source), so what it
 *   referred to is checked again.
 *
 * No transaction spans the plan and the deletion (ClickHouse has none): a
 * call ingested in between may refer again to a value planned to go. The
 * caller checks after deleting and writes such values back (`restore`).
 */
export class ContentPlanner {
  readonly #connection: ClickHouseConnection;
  readonly #refs: ClickHouseContentRefStore;
  readonly #values: string;
  readonly #files: string;

  constructor({
    connection,
    refs,
    values,
    files,
  }: {
    connection: ClickHouseConnection;
    refs: ClickHouseContentRefStore;
    values: string;
    files: string;
  }) {
    this.#connection = connection;
    this.#refs = refs;
    this.#values = values;
    this.#files = files;
  }

  async plan(
    project: string,
    leavingRefs: readonly ContentRefRow[],
    extra: readonly ContentRefKey[] = [],
  ): Promise<ContentPlan> {
    // key → the leaving sources that refer to it
    const leaving = new Map<ContentRefKey, Set<string>>();
    const leave = (key: ContentRefKey, source: string) => {
      const sources = leaving.get(key) ?? new Set<string>();
      sources.add(source);
      leaving.set(key, sources);
    };
    for (const row of leavingRefs) leave(`${row.kind}:${row.target}` as ContentRefKey, row.source);
    const plan: ContentPlan = { values: new Map(), files: new Map() };
    let queue = [...new Set<ContentRefKey>([...leaving.keys(), ...extra])];
    while (queue.length > 0) {
      const open = queue.filter(
        (key) => !key.startsWith('c:') && !plan.values.has(key.slice(2)) && !plan.files.has(key.slice(2)),
      );
      queue = [];
      const referrers = await this.#refs.referrers(project, open);
      const unreferenced = open.filter((key) => (referrers.get(key) ?? 0) <= (leaving.get(key)?.size ?? 0));
      const values = unreferenced.filter((key) => key.startsWith('v:')).map((key) => key.slice(2));
      for (const value of await this.#readValues(project, values)) {
        plan.values.set(value.digest, value);
        for (const ref of value.refs) {
          leave(ref, `v:${value.digest}`);
          queue.push(ref);
        }
      }
      const files = unreferenced.filter((key) => key.startsWith('f:')).map((key) => key.slice(2));
      for (const [digest, bytes] of await this.#readFiles(project, files)) plan.files.set(digest, bytes);
    }
    return plan;
  }

  async #readValues(project: string, digests: readonly string[]): Promise<GoneValue[]> {
    const out: GoneValue[] = [];
    for (let i = 0; i < digests.length; i += CHUNK) {
      const rows = await this.#connection.rows<{
        digest: string;
        f_is_array: number | string;
        f_prev: string;
        f_bytes: string;
      }>(
        `SELECT digest, any(is_array) AS f_is_array, any(prev) AS f_prev, any(bytes_base64) AS f_bytes FROM ${this.#values} WHERE project = ${sqlLiteral(project)} AND digest IN ${inList(digests.slice(i, i + CHUNK))} GROUP BY digest`,
      );
      for (const row of rows) {
        const bytes = new Uint8Array(Buffer.from(row.f_bytes, 'base64'));
        out.push({
          digest: row.digest,
          isArray: Number(row.f_is_array),
          prev: row.f_prev,
          bytesBase64: row.f_bytes,
          refs: valueRefsOf(row.f_prev === '' ? undefined : row.f_prev, bytes),
        });
      }
    }
    return out;
  }

  async #readFiles(project: string, digests: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < digests.length; i += CHUNK) {
      const rows = await this.#connection.rows<{ digest: string; f_bytes: string }>(
        `SELECT digest, any(bytes_base64) AS f_bytes FROM ${this.#files} WHERE project = ${sqlLiteral(project)} AND digest IN ${inList(digests.slice(i, i + CHUNK))} GROUP BY digest`,
      );
      for (const row of rows) out.set(row.digest, row.f_bytes);
    }
    return out;
  }
}
