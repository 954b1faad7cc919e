import type {
  CallRollupRow,
  CompletedCalls,
  FeedbackRollupRead,
  FeedbackRollupRow,
  RollupRead,
} from './rollup/index.js';

/**
 * Metrics rollups (issue 29). Every engine keeps them at ingest, in the
 * same write as the calls and feedback they count: `ingestCalls`,
 * `ingestSpanCalls` (recomputed usage totals included) and `putFeedback`
 * (new ids only) bring them up to date before they resolve, so a read that
 * follows sees them.
 *
 * Semantics every engine keeps (the conformance tests check them against a
 * recomputation from the stored calls): the rollups equal the sum over
 * every stored call of its contribution (`RollupDelta`), computed from the
 * call's halves as last received, and of its feedback's. Counts and sums are
 * exact integers (µs, nano-dollars, tokens) in any order of arrival, with
 * re-sent records, and across restarts; histograms are bin counts, exact
 * too, so percentiles keep `QUANTILE_RELATIVE_ERROR`. Calls stored before an
 * engine had rollups are not counted.
 */
export interface RollupStorage {
  /** Call rollups of one cut at one level, added up per bucket, status and group (see `RollupRead`). */
  readCallRollups(read: RollupRead): Promise<CallRollupRow[]>;
  /** Feedback rollups, added up per bucket, group and name. */
  readFeedbackRollups(read: FeedbackRollupRead): Promise<FeedbackRollupRow[]>;
  /**
   * Ids of calls that became complete (start and end stored) after
   * `cursor` (`undefined`: from the first), in the order they did, at most
   * `limit`. Each call appears once, when it first became complete; a call
   * completed by a write that had begun before a read returned may appear
   * only in a later read, never before the cursor that read returned.
   */
  completedCalls(project: string, cursor: string | undefined, limit: number): Promise<CompletedCalls>;
  /**
   * The cursor after the last call completed so far (`undefined` when none
   * has): where a new online evaluator starts, so it scores calls from its
   * creation on (a backfill covers the past).
   */
  completionsEnd(project: string): Promise<string | undefined>;
  /**
   * Takes calls out of the rollups, with their feedback, and forgets what
   * monitoring kept of them (facts, completion): deletion of calls on
   * request calls it with the ids it deletes, BEFORE deleting them. Unknown
   * ids are skipped. Returns how many were known.
   */
  forgetCalls(project: string, ids: readonly string[]): Promise<{ forgotten: number }>;
  /**
   * Retention: drops rollup rows of buckets that end at or before
   * `beforeMs`, and the facts of calls started before it (such calls can no
   * longer be taken out, as their rows are gone).
   */
  dropRollupsBefore(project: string, beforeMs: number): Promise<void>;
}

/** A small JSON document of monitoring configuration or state (a rule, a dashboard, a cursor). */
export interface StateDocument<T = unknown> {
  project: string;
  kind: string;
  key: string;
  value: T;
  /** Grows with every write of the key (1 for the first): what `writeDocument`'s `expectedVersion` compares with. */
  version: number;
  updatedAt: number;
}

/** One entry of a monitoring log (alert history, webhook deliveries, evaluator errors). */
export interface LogEntry<T = unknown> {
  at: number;
  value: T;
}

/**
 * Documents and logs of monitoring: evaluator and alert rules, their state
 * and cursors, dashboards, webhook deliveries. Documents are keyed by
 * (project, kind, key); logs are append-only lists per (project, kind, key).
 *
 * `writeDocument` with an `expectedVersion` is a compare-and-set on SQLite
 * (one transaction). On ClickHouse it is a check then a write: two writers
 * racing may both pass the check, and the later write wins; the server
 * runs its scheduler (alerts, judge rules) on one replica for that reason
 * (docs/monitoring.md).
 */
export interface MonitorStateStorage {
  readDocument<T>(project: string, kind: string, key: string): Promise<StateDocument<T> | undefined>;
  /** Every document of `kind` in `project`, or in every project when `project` is `undefined`; by key. */
  listDocuments<T>(kind: string, project: string | undefined): Promise<StateDocument<T>[]>;
  /**
   * Stores `value` under the key when the stored version equals
   * `expectedVersion` (0: the document must not exist; `undefined`: any).
   * Returns the stored document, or `undefined` when the version differed.
   */
  writeDocument<T>(
    project: string,
    kind: string,
    key: string,
    value: T,
    expectedVersion?: number,
  ): Promise<StateDocument<T> | undefined>;
  /** Removes a document; whether it existed. */
  deleteDocument(project: string, kind: string, key: string): Promise<boolean>;
  /** Appends entries to a log, in order. */
  appendLog(project: string, kind: string, key: string, entries: readonly LogEntry[]): Promise<void>;
  /** The newest entries of a log first, at most `limit`, older than `before` (`at`) when given. */
  readLog<T>(
    project: string,
    kind: string,
    key: string,
    options: { limit: number; before?: number | undefined },
  ): Promise<LogEntry<T>[]>;
  /** Removes a log's entries older than `beforeMs` (`at`). */
  trimLog(project: string, kind: string, key: string, beforeMs: number): Promise<void>;
}
