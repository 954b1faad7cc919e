import type { Database, Statement } from 'better-sqlite3';
import {
  ALL_OPS,
  type CallRollupRow,
  type CompletedCalls,
  type FeedbackRollupRead,
  type FeedbackRollupRow,
  type RollupRead,
  type RollupStatus,
} from '../rollup/index.js';
import { callValuesOfRow, feedbackValuesOfRow } from './rollup-rows.js';

/** Most distinct statement shapes kept prepared (shapes depend on which conditions a read has). */
const MAX_CACHED_STATEMENTS = 64;

const CALL_SUMS = `SUM(n) AS n, SUM(latency_sum_us) AS latency_sum_us, SUM(ttft_n) AS ttft_n, SUM(ttft_sum_us) AS ttft_sum_us,
  SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cached_tokens) AS cached_tokens,
  SUM(reasoning_tokens) AS reasoning_tokens, SUM(total_tokens) AS total_tokens, SUM(cost_n) AS cost_n, SUM(cost_nano) AS cost_nano`;

/**
 * Reads of the metrics rollups (rollup-schema.ts), added up in SQL per
 * bucket, status (or feedback name) and group; histograms are gathered per
 * group as one JSON array of the rows' bin lists and merged here.
 */
export class SqliteRollupReader {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();
  readonly #completions: Statement;
  readonly #end: Statement;

  constructor(db: Database) {
    this.#db = db;
    this.#completions = db.prepare(
      'SELECT seq, id FROM call_completions WHERE project = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.#end = db.prepare('SELECT MAX(seq) FROM call_completions WHERE project = ?').pluck();
  }

  calls(read: RollupRead): CallRollupRow[] {
    const { where, params, group } = conditions('call_rollups', read);
    const bins = read.histograms
      ? `, '[' || group_concat(latency_bins, ',') || ']' AS latency_bins, '[' || group_concat(ttft_bins, ',') || ']' AS ttft_bins`
      : '';
    const sql = `SELECT t, status, ${group} AS g, ${CALL_SUMS}${bins} FROM call_rollups
      WHERE ${where.join(' AND ')} GROUP BY t, status, g`;
    return this.#allPerRange(sql, params, read.ranges).map((row) => {
      const values = callValuesOfRow(row, false);
      if (read.histograms) {
        values.latency = mergedHistograms(row.latency_bins as string | null);
        values.ttft = mergedHistograms(row.ttft_bins as string | null);
      }
      return { t: Number(row.t), status: row.status as RollupStatus, group: row.g as string | null, values };
    });
  }

  feedback(read: FeedbackRollupRead): FeedbackRollupRow[] {
    const { where, params, group } = conditions('feedback_rollups', read);
    where.push('name IN (SELECT value FROM json_each(@names))');
    params.names = JSON.stringify(read.names);
    const sql = `SELECT t, name, ${group} AS g, SUM(n) AS n, SUM(numeric_n) AS numeric_n, SUM(sum) AS sum,
      SUM(sum_squares) AS sum_squares, json_group_array(distribution) FILTER (WHERE distribution IS NOT NULL) AS distributions
      FROM feedback_rollups WHERE ${where.join(' AND ')} GROUP BY t, name, g`;
    return this.#allPerRange(sql, params, read.ranges).map((row) => {
      const values = feedbackValuesOfRow({ ...row, distribution: null });
      for (const text of JSON.parse(row.distributions as string) as string[]) {
        for (const [key, count] of Object.entries(JSON.parse(text) as Record<string, number>)) {
          values.distribution.set(key, (values.distribution.get(key) ?? 0) + count);
        }
      }
      return { t: Number(row.t), name: row.name as string, group: row.g as string | null, values };
    });
  }

  /** The last completion's position, `undefined` when none. */
  completionsEnd(project: string): string | undefined {
    const seq = this.#end.get(project) as number | null;
    return seq === null ? undefined : String(seq);
  }

  /** Calls completed after `afterSeq`, oldest first. */
  completions(project: string, afterSeq: number, limit: number): CompletedCalls {
    const rows = this.#completions.all(project, afterSeq, limit) as { seq: number; id: string }[];
    const last = rows.at(-1);
    return { ids: rows.map((row) => row.id), cursor: last === undefined ? null : String(last.seq) };
  }

  /**
   * The rows of `sql` for each range in turn, each one a seek on the primary
   * key: ranges are disjoint and in order and rows are grouped by bucket, so
   * this is what one read of them all would answer. (One read from the first
   * start to the last end with a test per row walked every row in between:
   * the minute rows of a whole month for the few minutes at either end of a
   * 30-day dashboard, a walk that grew with the calls stored.)
   */
  #allPerRange(
    sql: string,
    params: Record<string, unknown>,
    ranges: RollupRead['ranges'],
  ): Record<string, unknown>[] {
    const statement = this.#statement(sql);
    return ranges.flatMap(
      ([from, to]) => statement.all({ ...params, from, to }) as Record<string, unknown>[],
    );
  }

  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** WHERE terms, named parameters (all but `from` and `to`) and the group column of a read of `table`. */
function conditions(
  table: 'call_rollups' | 'feedback_rollups',
  read: Omit<RollupRead, 'histograms'>,
): {
  where: string[];
  params: Record<string, unknown>;
  group: string;
} {
  // `from` and `to` are bound per range (#allPerRange).
  const where = ['project = @project', 'cut = @cut', 'level = @level', 't >= @from', 't < @to'];
  const params: Record<string, unknown> = { project: read.project, cut: read.cut, level: read.level };
  if ('all' in read.ops) {
    where.push('op = @allOps');
    params.allOps = ALL_OPS;
  } else if ('names' in read.ops) {
    where.push('op IN (SELECT value FROM json_each(@ops))');
    params.ops = JSON.stringify(read.ops.names);
  } else {
    where.push(`op IN (${eachOp(table)})`);
    params.allOps = ALL_OPS;
  }
  if (read.value !== undefined) {
    where.push('value = @value');
    params.value = read.value;
  }
  if (read.root !== undefined) {
    where.push('root = @root');
    params.root = read.root ? 1 : 0;
  }
  const group = 'each' in read.ops ? 'op' : read.byValue ? 'value' : 'NULL';
  return { where, params, group };
}

/**
 * The ops of the cut in `table` but `*`, one primary-key seek each (a loose
 * index scan): with them, a split by op seeks each op's level and time
 * range. `op <> '*'` instead walked every row of the cut, the minute rows
 * of every op all along the retention, a walk that grew with the calls.
 */
function eachOp(table: 'call_rollups' | 'feedback_rollups'): string {
  return `WITH RECURSIVE ops(op) AS (
      SELECT MIN(op) FROM ${table} WHERE project = @project AND cut = @cut
      UNION ALL
      SELECT (SELECT MIN(next.op) FROM ${table} next WHERE next.project = @project AND next.cut = @cut AND next.op > ops.op)
      FROM ops WHERE ops.op IS NOT NULL
    ) SELECT op FROM ops WHERE op IS NOT NULL AND op <> @allOps`;
}

/** Adds up the bin lists `[[[bin, count], …], …]` of several rows. */
function mergedHistograms(text: string | null): Map<number, number> {
  const merged = new Map<number, number>();
  if (text === null) return merged;
  for (const pairs of JSON.parse(text) as [number, number][][]) {
    for (const [bin, count] of pairs) merged.set(bin, (merged.get(bin) ?? 0) + count);
  }
  // Rows hold no zero counts, but their sum may cancel out.
  for (const [bin, count] of merged) if (count === 0) merged.delete(bin);
  return merged;
}
