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
import { HistogramBlobSum } from './histogram-blob.js';
import { callValuesOfRow, feedbackValuesOfRow, SUM_COLUMNS } from './rollup-rows.js';

/** Most distinct statement shapes kept prepared (shapes depend on which conditions a read has). */
const MAX_CACHED_STATEMENTS = 64;

/**
 * Reads of the metrics rollups (rollup-schema.ts), added up in SQL per
 * range (each within one bucket of the query), status (or feedback name)
 * and group; histograms are added up by the `weft_bins` aggregate, on
 * their stored binary form (histogram-blob.ts), and decoded once per group.
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
    db.aggregate<HistogramBlobSum>('weft_bins', {
      start: () => new HistogramBlobSum(),
      // The column's value (a BLOB or NULL), whatever the typings make of it.
      step: (sum, blob) => sum.add(blob as unknown as Uint8Array | null),
      result: (sum) => sum.blob(),
    });
  }

  calls(read: RollupRead): CallRollupRow[] {
    const { sql, params } = rangeRead('call_rollups', read, {
      // Only the columns asked for: each costs time per row read.
      columns: [
        'c.status AS status',
        ...read.sums.map((sum) => `SUM(${SUM_COLUMNS[sum]}) AS ${SUM_COLUMNS[sum]}`),
        ...read.histograms.map((histogram) => `weft_bins(${histogram}_bins) AS ${histogram}_bins`),
      ].join(', '),
      groupBy: 'c.status',
    });
    return this.#statement(sql)
      .all(params)
      .map((row) => {
        const r = row as Record<string, unknown>;
        const values = callValuesOfRow(r, read);
        return { t: Number(r.t), status: r.status as RollupStatus, group: r.g as string | null, values };
      });
  }

  feedback(read: FeedbackRollupRead): FeedbackRollupRow[] {
    const { sql, params } = rangeRead('feedback_rollups', read, {
      columns: `c.name AS name, SUM(n) AS n, SUM(numeric_n) AS numeric_n, SUM(sum) AS sum,
        SUM(sum_squares) AS sum_squares,
        json_group_array(distribution) FILTER (WHERE distribution IS NOT NULL) AS distributions`,
      groupBy: 'c.name',
      where: 'c.name IN (SELECT value FROM json_each(@names))',
    });
    params.names = JSON.stringify(read.names);
    return this.#statement(sql)
      .all(params)
      .map((row) => {
        const r = row as Record<string, unknown>;
        const values = feedbackValuesOfRow({ ...r, distribution: null });
        for (const text of JSON.parse(r.distributions as string) as string[]) {
          for (const [key, count] of Object.entries(JSON.parse(text) as Record<string, number>)) {
            values.distribution.set(key, (values.distribution.get(key) ?? 0) + count);
          }
        }
        return { t: Number(r.t), name: r.name as string, group: r.g as string | null, values };
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

/**
 * One statement for a whole read: the ranges (a JSON parameter, as a
 * table `r`) drive the loop, each one primary-key seek into the rollups
 * (per op `o` when the read names or splits ops), and the rows add up per
 * range (`t`, its start: a range lies within one bucket of the query),
 * `groupBy` and group (`g`). A statement per range cost more in calls
 * than in rows (121 ranges of a 30-day dashboard); one scan from the first
 * start to the last end walked every row in between (the minute rows of a
 * whole month, for the few minutes at either end). CROSS JOIN keeps the
 * planner from turning the loop inside out (scanning the rollups, then
 * testing each row against every range).
 */
function rangeRead(
  table: 'call_rollups' | 'feedback_rollups',
  read: Omit<RollupRead, 'sums' | 'histograms'>,
  parts: { columns: string; groupBy: string; where?: string },
): { sql: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {
    project: read.project,
    cut: read.cut,
    level: read.level,
    ranges: JSON.stringify(read.ranges),
    allOps: ALL_OPS,
  };
  const ctes = ['r(f, e) AS MATERIALIZED (SELECT value ->> 0, value ->> 1 FROM json_each(@ranges))'];
  const on = ['c.project = @project', 'c.cut = @cut', 'c.level = @level', 'c.t >= r.f', 'c.t < r.e'];
  let tables = 'r CROSS JOIN';
  if ('all' in read.ops) {
    on.push('c.op = @allOps');
  } else {
    if ('names' in read.ops) {
      ctes.push('o(op) AS MATERIALIZED (SELECT value FROM json_each(@ops))');
      params.ops = JSON.stringify(read.ops.names);
    } else {
      ctes.unshift(eachOp(table));
      ctes.push('o(op) AS MATERIALIZED (SELECT op FROM ops WHERE op IS NOT NULL AND op <> @allOps)');
    }
    tables += ' o CROSS JOIN';
    on.push('c.op = o.op');
  }
  if (read.value !== undefined) {
    on.push('c.value = @value');
    params.value = read.value;
  }
  if (read.root !== undefined) {
    on.push('c.root = @root');
    params.root = read.root ? 1 : 0;
  }
  if (parts.where !== undefined) on.push(parts.where);
  const group = 'each' in read.ops ? 'c.op' : read.byValue ? 'c.value' : 'NULL';
  const sql = `WITH RECURSIVE ${ctes.join(', ')}
    SELECT r.f AS t, ${group} AS g, ${parts.columns}
    FROM ${tables} ${table} c ON ${on.join(' AND ')}
    GROUP BY r.f, ${parts.groupBy}, g`;
  return { sql, params };
}

/**
 * The ops of the cut in `table` but `*`, one primary-key seek each (a loose
 * index scan): with them, a split by op seeks each op's level and time
 * range. `op <> '*'` instead walked every row of the cut, the minute rows
 * of every op all along the retention, a walk that grew with the calls.
 */
function eachOp(table: 'call_rollups' | 'feedback_rollups'): string {
  return `ops(op) AS (
      SELECT MIN(op) FROM ${table} WHERE project = @project AND cut = @cut
      UNION ALL
      SELECT (SELECT MIN(next.op) FROM ${table} next WHERE next.project = @project AND next.cut = @cut AND next.op > ops.op)
      FROM ops WHERE ops.op IS NOT NULL
    )`;
}
