import type { RollupLevel, CutKind, RollupStatus } from './rollup-keys.js';
import type { CallRollupValues, CallSum, FeedbackRollupValues } from './rollup-values.js';

/** A histogram a call rollup keeps: of latencies or of times to first token. */
export type RollupHistogram = 'latency' | 'ttft';

/** Which ops a rollup read takes: every op together, some ops together, or each op apart (split by op). */
export type RollupOps = { all: true } | { names: readonly string[] } | { each: true };

/**
 * A read of rollup rows at one level: the rollup buckets starting in
 * `ranges` (each `[from, to)`, disjoint, in order, and each within one
 * bucket of the query), of one cut (optionally one of its values), added up
 * per range — or finer, per rollup bucket — status and group (the op when
 * `ops` is `each`, the cut's value when `byValue`, none otherwise). A row's
 * `t` lies within its range.
 */
export interface RollupRead {
  project: string;
  level: RollupLevel;
  ranges: readonly (readonly [number, number])[];
  cut: CutKind;
  value?: string | undefined;
  ops: RollupOps;
  byValue: boolean;
  /** Only root calls (true) or only children (false); both when absent. */
  root?: boolean | undefined;
  /** Which sums are wanted (others may read as 0). */
  sums: readonly CallSum[];
  /** Which histograms are wanted (reading them costs more; others are left empty). */
  histograms: readonly RollupHistogram[];
}

/** Call rollups added up for one range (or rollup bucket), status and group. */
export interface CallRollupRow {
  t: number;
  status: RollupStatus;
  group: string | null;
  values: CallRollupValues;
}

/** A read of feedback rollups: like {@link RollupRead}, for feedback of `names`. */
export interface FeedbackRollupRead extends Omit<RollupRead, 'sums' | 'histograms'> {
  names: readonly string[];
}

/** Feedback rollups added up for one bucket, group and feedback name. */
export interface FeedbackRollupRow {
  t: number;
  group: string | null;
  name: string;
  values: FeedbackRollupValues;
}

/** Calls that became complete (start and end both stored), in the order they did, after a cursor. */
export interface CompletedCalls {
  ids: string[];
  /** Pass back to continue after the last id (`null`: nothing after it yet; keep the cursor you had). */
  cursor: string | null;
}

/** `ranges` (disjoint, in order) with those that touch joined: for an engine that adds rows up per rollup bucket. */
export function joinedRanges(ranges: RollupRead['ranges']): [number, number][] {
  const joined: [number, number][] = [];
  for (const [from, to] of ranges) {
    const last = joined.at(-1);
    if (last !== undefined && last[1] === from) last[1] = to;
    else joined.push([from, to]);
  }
  return joined;
}
