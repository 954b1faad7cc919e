/** Rollup resolutions: per minute and per hour (UTC-aligned; local buckets are assembled from them). */
export type RollupLevel = 'm' | 'h';

export const LEVEL_MS: Record<RollupLevel, number> = { m: 60_000, h: 3_600_000 };

/** Start of the rollup bucket of `ms` at `level`. */
export function levelStart(level: RollupLevel, ms: number): number {
  const size = LEVEL_MS[level];
  return Math.floor(ms / size) * size;
}

/**
 * The dimension a rollup row is cut by, besides the op: none (`''`, the
 * call's totals), the `version` attribute, a tag, a model, the user or the
 * session.
 */
export type CutKind = '' | 'version' | 'tag' | 'model' | 'user' | 'session';

/**
 * How each cut is kept. Low-cardinality cuts are kept per op and for all ops
 * (op `*`), per minute and per hour, so a filter or a split by op combines
 * with them. Users and sessions are many (often one row per call), so they
 * are kept for all ops only and per hour only: that bounds what each call
 * costs at ingest (see docs/monitoring.md for what needs raw calls instead).
 */
export const CUTS: Record<CutKind, { perOp: boolean; levels: readonly RollupLevel[] }> = {
  '': { perOp: true, levels: ['m', 'h'] },
  version: { perOp: true, levels: ['m', 'h'] },
  tag: { perOp: true, levels: ['m', 'h'] },
  model: { perOp: true, levels: ['m', 'h'] },
  user: { perOp: false, levels: ['h'] },
  session: { perOp: false, levels: ['h'] },
};

/** The op of rollup rows that count every op. */
export const ALL_OPS = '*';

/** Status part of a call rollup's key. */
export type RollupStatus = 'running' | 'success' | 'error';

/** Where a call counts: bucket, trace position, status, op and cut. */
export interface CallRollupKey {
  level: RollupLevel;
  /** Start of the bucket (epoch ms). */
  t: number;
  root: boolean;
  status: RollupStatus;
  op: string;
  cut: CutKind;
  /** The cut's value ('' for the totals). */
  value: string;
}

/** Where feedback counts: its call's bucket, trace position, op and cut (not its status), and its name. */
export interface FeedbackRollupKey {
  level: RollupLevel;
  t: number;
  root: boolean;
  op: string;
  cut: CutKind;
  value: string;
  name: string;
}

const SEP = '\u0000';

/** One string per key, for maps that add up a batch's deltas. */
export function callKeyString(key: CallRollupKey): string {
  return [key.level, key.t, key.root ? 1 : 0, key.status, key.op, key.cut, key.value].join(SEP);
}

export function feedbackKeyString(key: FeedbackRollupKey): string {
  return [key.level, key.t, key.root ? 1 : 0, key.op, key.cut, key.value, key.name].join(SEP);
}
