import {
  ALL_OPS,
  CALL_SUMS,
  type CallRollupRow,
  type CompletedCalls,
  emptyCallValues,
  emptyFeedbackValues,
  type FeedbackRollupRead,
  type FeedbackRollupRow,
  isZeroCallValues,
  isZeroFeedbackValues,
  joinedRanges,
  LEVEL_MS,
  type RollupHistogram,
  type RollupRead,
  type RollupStatus,
} from '../rollup/index.js';
import type { ClickHouseConnection } from './clickhouse-connection.js';
import { CALL_SUM_COLUMNS } from './rollup-schema.js';
import { perRead, ReadsTogether } from './reads-together.js';
import { LATENCY, TTFT } from './rollup-store.js';

/** The `hist` column's value of each histogram. */
const HIST: Record<RollupHistogram, string> = { latency: LATENCY, ttft: TTFT };
import { inList, sqlLiteral } from './sql-literal.js';

/**
 * Reads of the ClickHouse rollups: the aggregate states of the matching
 * rows finished with `sumMerge` per bucket, status (or feedback name), group
 * and histogram bin (or feedback value), whether or not merges have run;
 * the bins are gathered back into histograms here. Aliases carry
 * an `r_` prefix: an alias equal to a column name would replace it in the
 * other expressions.
 */
export class ClickHouseRollupReader {
  readonly #connection: ClickHouseConnection;
  readonly #tables: { calls: string; feedback: string; completions: string };
  /** How long a completion waits before it is listed (see `completions`). */
  readonly #settleMs: number;
  /** Call reads of this turn, sent together (see `calls`). */
  readonly #calls = new ReadsTogether<RollupRead, CallRollupRow>(sharedKey, (reads) =>
    this.#callsTogether(reads),
  );
  /** Feedback reads of this turn, sent together (see `feedback`). */
  readonly #feedback = new ReadsTogether<FeedbackRollupRead, FeedbackRollupRow>(feedbackKey, (reads) =>
    this.#feedbackTogether(reads),
  );

  constructor(options: {
    connection: ClickHouseConnection;
    tables: { calls: string; feedback: string; completions: string };
    settleMs: number;
  }) {
    this.#connection = options.connection;
    this.#tables = options.tables;
    this.#settleMs = options.settleMs;
  }

  /**
   * One row per range (or rollup bucket, see `rangeOf`), status and group:
   * the wanted sums (of the rows of sums, `hist` '') and each wanted
   * histogram as `[bins, counts]`, added up by the engine in one GROUP BY
   * (each row's state finished by `finalizeAggregation`: a sum of the
   * states' sums is the sum of their merge). A row per bin was a JSON
   * object to decode per bin (68,000 for the latency panel's hour read at
   * 100,000 calls); numbers go out as Float64 (exact below 2^53), which
   * JSON writes unquoted.
   *
   * Reads made in the same turn that differ only in level and ranges (a
   * metrics query's hour rows and its edge minutes) go as ONE statement,
   * each row tagged with the read it answers: on chDB a statement's parsing
   * and planning cost about as much as reading a panel's rows (10 M calls).
   */
  calls(read: RollupRead): Promise<CallRollupRow[]> {
    return this.#calls.read(read);
  }

  /** `reads` (same {@link sharedKey}, distinct levels) in one statement, each read's rows apart. */
  async #callsTogether(reads: readonly RollupRead[]): Promise<CallRollupRow[][]> {
    const [read] = reads as [RollupRead];
    const sums = CALL_SUM_COLUMNS.filter(
      ([column], i) => column === 'n' || read.sums.includes(CALL_SUMS[i] as (typeof CALL_SUMS)[number]),
    ).map(([column]) => column);
    const hists = read.histograms.map((histogram) => HIST[histogram]);
    const owns = reads.map(ownConditions);
    const which = (values: readonly string[]) => perRead(owns, values);
    const rows = await this.#connection.rows<Record<string, unknown>>(`
      SELECT ${which(reads.map((_, i) => String(i)))} AS r_q, ${which(reads.map(rangeOf))} AS r_t,
        status AS r_status, ${groupOf(read)} AS r_g,
        ${sums.map((c) => `sumIf(toFloat64(finalizeAggregation(${c})), hist = '') AS s_${c}`).join(', ')}
        ${hists.map((h) => `, sumMapIf([bin], [toFloat64(finalizeAggregation(n))], hist = ${sqlLiteral(h)}) AS h_${h}`).join('')}
      FROM ${this.#tables.calls}
      WHERE ${sharedConditions(read)} AND (${owns.map((own) => `(${own})`).join(' OR ')}) AND hist IN ${inList(['', ...hists])}
      GROUP BY r_q, r_t, r_status, r_g`);
    const out: CallRollupRow[][] = reads.map(() => []);
    for (const row of rows) {
      const values = emptyCallValues();
      for (const column of sums) {
        const i = CALL_SUM_COLUMNS.findIndex(([c]) => c === column);
        values[CALL_SUMS[i] as (typeof CALL_SUMS)[number]] = Number(row[`s_${column}`]);
      }
      for (const [hist, into] of [
        [LATENCY, values.latency],
        [TTFT, values.ttft],
      ] as const) {
        const [bins = [], counts = []] = (row[`h_${hist}`] as [number[], number[]] | undefined) ?? [];
        for (const [i, bin] of bins.entries()) addCount(into, Number(bin), Number(counts[i]));
      }
      // A key whose every call was taken out keeps its (zero) states: skip it.
      if (isZeroCallValues(values)) continue;
      out[Number(row.r_q)]?.push({
        t: Number(row.r_t),
        status: row.r_status as RollupStatus,
        group: groupValue(read, row.r_g as string),
        values,
      });
    }
    return out;
  }

  /**
   * One row per rollup bucket, feedback name and group. Reads made in the
   * same turn that differ only in level and ranges go as one statement, as
   * in {@link calls}.
   */
  feedback(read: FeedbackRollupRead): Promise<FeedbackRollupRow[]> {
    return this.#feedback.read(read);
  }

  /** `reads` (same {@link feedbackKey}, distinct levels) in one statement, each read's rows apart. */
  async #feedbackTogether(reads: readonly FeedbackRollupRead[]): Promise<FeedbackRollupRow[][]> {
    const [read] = reads as [FeedbackRollupRead];
    const owns = reads.map(ownConditions);
    const rows = await this.#connection.rows<Record<string, unknown>>(`
      SELECT ${perRead(
        owns,
        reads.map((_, i) => String(i)),
      )} AS r_q, t AS r_t, name AS r_name, ${groupOf(read)} AS r_g, dvalue AS r_dvalue, sumMerge(n) AS r_n,
        sumMerge(numeric_n) AS r_numeric_n, sumMerge(sum) AS r_sum, sumMerge(sum_squares) AS r_sum_squares
      FROM ${this.#tables.feedback}
      WHERE ${sharedConditions(read)} AND (${owns.map((own) => `(${own})`).join(' OR ')}) AND name IN ${inList(read.names)}
      GROUP BY r_q, r_t, r_name, r_g, r_dvalue`);
    const out = reads.map(() => new Map<string, FeedbackRollupRow>());
    for (const row of rows) {
      const byKey = out[Number(row.r_q)];
      if (byKey === undefined) continue;
      const key = `${row.r_t}\u0000${row.r_name}\u0000${row.r_g}`;
      let found = byKey.get(key);
      if (found === undefined) {
        found = {
          t: Number(row.r_t),
          name: row.r_name as string,
          group: groupValue(read, row.r_g as string),
          values: emptyFeedbackValues(),
        };
        byKey.set(key, found);
      }
      if (row.r_dvalue !== '') addCount(found.values.distribution, row.r_dvalue as string, Number(row.r_n));
      else {
        found.values.n = Number(row.r_n);
        found.values.numericN = Number(row.r_numeric_n);
        found.values.sum = Number(row.r_sum);
        found.values.sumSquares = Number(row.r_sum_squares);
      }
    }
    return out.map((byKey) => [...byKey.values()].filter((row) => !isZeroFeedbackValues(row.values)));
  }

  /** The last settled completion's position, `undefined` when none. */
  async completionsEnd(project: string): Promise<string | undefined> {
    const settled = (Date.now() - this.#settleMs) * 1_000;
    const [row] = await this.#connection.rows<{ r_seq: string; r_count: string }>(`
      SELECT max(seq) AS r_seq, count() AS r_count FROM ${this.#tables.completions}
      WHERE project = ${sqlLiteral(project)} AND seq <= ${sqlLiteral(settled)}`);
    return row === undefined || Number(row.r_count) === 0 ? undefined : String(row.r_seq);
  }

  /**
   * Calls completed after the cursor `afterSeq`, oldest first. Only
   * completions at least `settleMs` old are listed: another replica's
   * insert may land after a later `seq` is visible, and a cursor must never
   * pass a completion that is still on its way.
   */
  async completions(project: string, afterSeq: number, limit: number): Promise<CompletedCalls> {
    const settled = (Date.now() - this.#settleMs) * 1_000;
    const rows = await this.#connection.rows<{ r_seq: string; id: string }>(`
      SELECT seq AS r_seq, id FROM ${this.#tables.completions}
      WHERE project = ${sqlLiteral(project)} AND seq > ${sqlLiteral(afterSeq)} AND seq <= ${sqlLiteral(settled)}
      ORDER BY seq LIMIT ${sqlLiteral(limit)}`);
    const last = rows.at(-1);
    return {
      ids: [...new Set(rows.map((row) => row.id))],
      cursor: last === undefined ? null : String(last.r_seq),
    };
  }
}

/** What call reads sent together share: everything but level and ranges. */
function sharedKey(read: RollupRead): string {
  return JSON.stringify([
    read.project,
    read.cut,
    read.value,
    read.ops,
    read.byValue,
    read.root,
    read.sums,
    read.histograms,
  ]);
}

/** What feedback reads sent together share: everything but level and ranges. */
function feedbackKey(read: FeedbackRollupRead): string {
  return JSON.stringify([read.project, read.cut, read.value, read.ops, read.byValue, read.root, read.names]);
}

/** A read's conditions on the key but its level and time. */
function sharedConditions(read: Omit<RollupRead, 'sums' | 'histograms'>): string {
  const terms = [`project = ${sqlLiteral(read.project)}`, `cut = ${sqlLiteral(read.cut)}`];
  if ('all' in read.ops) terms.push(`op = ${sqlLiteral(ALL_OPS)}`);
  else if ('names' in read.ops) terms.push(`op IN ${inList(read.ops.names)}`);
  else terms.push(`op != ${sqlLiteral(ALL_OPS)}`);
  if (read.value !== undefined) terms.push(`value = ${sqlLiteral(read.value)}`);
  if (read.root !== undefined) terms.push(`root = ${read.root ? 1 : 0}`);
  return terms.join(' AND ');
}

/** A read's level and time ranges: what tells its rows from another's read in the same statement. */
function ownConditions(read: Pick<RollupRead, 'level' | 'ranges'>): string {
  // Rows come back per rollup bucket (t), so ranges that touch need no edge between them.
  const ranges = joinedRanges(read.ranges);
  const starts = ranges.map(([from]) => from);
  const ends = ranges.map(([, to]) => to);
  const terms = [
    `level = ${sqlLiteral(read.level)}`,
    `t >= ${sqlLiteral(starts.length === 0 ? 0 : Math.min(...starts))}`,
    `t < ${sqlLiteral(ends.length === 0 ? 0 : Math.max(...ends))}`,
  ];
  if (ranges.length > 1) {
    terms.push(
      `(${ranges.map(([from, to]) => `(t >= ${sqlLiteral(from)} AND t < ${sqlLiteral(to)})`).join(' OR ')})`,
    );
  }
  return terms.join(' AND ');
}

/** At most this many rollup buckets are mapped to their range in SQL; past it rows come per rollup bucket. */
const MAX_MAPPED_BUCKETS = 2_000;

/**
 * The start of the range holding a row's rollup bucket (`t`), so the engine
 * adds a whole range up (a 6-hour bucket of a dashboard: 6 hour rows, and
 * their histograms, in one); `t` itself (rows per rollup bucket, which the
 * fold adds up) when the ranges hold too many buckets to list.
 */
function rangeOf(read: RollupRead): string {
  const size = LEVEL_MS[read.level];
  const buckets: number[] = [];
  const starts: number[] = [];
  for (const [from, to] of read.ranges) {
    for (let t = Math.ceil(from / size) * size; t < to; t += size) {
      if (buckets.length >= MAX_MAPPED_BUCKETS) return 't';
      buckets.push(t);
      starts.push(from);
    }
  }
  if (buckets.every((t, i) => t === starts[i])) return 't';
  // Ranges of one width laid on one grid (a dashboard's 6-hour buckets in a
  // zone without a clock change in them; the first may be cut short by the
  // query's start) are arithmetic: parsing two lists of 720 literals cost
  // ClickHouse more than reading the rows (at 10 M calls, 9 of the 23 ms of
  // a panel's hour statement on chDB). Checked for every bucket, so ranges
  // that break the grid keep the lists.
  const grid = gridOf(read.ranges, buckets, starts);
  if (grid !== undefined) {
    const [first, origin, width] = grid.map((n) => `toInt64(${sqlLiteral(n)})`);
    return `greatest(${first}, ${origin} + intDiv(t - ${origin}, ${width}) * ${width})`;
  }
  const list = (values: number[]) => `CAST([${values.map((t) => sqlLiteral(t)).join(',')}] AS Array(Int64))`;
  return `transform(t, ${list(buckets)}, ${list(starts)}, t)`;
}

/**
 * `[first start, origin, width]` when every bucket's range start is
 * `max(first start, origin + ⌊(t − origin) / width⌋ · width)`, the origin a
 * grid point at or before every bucket (so the division never sees a
 * negative number, where JavaScript floors and ClickHouse truncates).
 */
function gridOf(
  ranges: readonly (readonly [number, number])[],
  buckets: readonly number[],
  starts: readonly number[],
): [number, number, number] | undefined {
  const reference = ranges[1] ?? ranges[0];
  if (reference === undefined || buckets.length === 0) return undefined;
  const width = reference[1] - reference[0];
  const low = Math.min(buckets[0] as number, starts[0] as number);
  if (!(width > 0) || !Number.isSafeInteger(width) || !Number.isSafeInteger(reference[0])) return undefined;
  const origin = reference[0] - Math.ceil((reference[0] - low) / width) * width;
  const first = Math.min(...starts);
  const startOf = (t: number) => Math.max(first, origin + Math.floor((t - origin) / width) * width);
  return buckets.every((t, i) => t >= origin && startOf(t) === starts[i])
    ? [first, origin, width]
    : undefined;
}

function groupOf(read: Omit<RollupRead, 'sums' | 'histograms'>): string {
  return 'each' in read.ops ? 'op' : read.byValue ? 'value' : "''";
}

function groupValue(read: Omit<RollupRead, 'sums' | 'histograms'>, group: string): string | null {
  return 'each' in read.ops || read.byValue ? group : null;
}

/** Adds a bin's or value's count, leaving out counts that added up to 0 (every value of a call taken out). */
function addCount<K>(counts: Map<K, number>, key: K, count: number): void {
  if (count !== 0) counts.set(key, (counts.get(key) ?? 0) + count);
}
