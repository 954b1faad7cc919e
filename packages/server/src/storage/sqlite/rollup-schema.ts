import type { Database } from 'better-sqlite3';
import { histogramBlob } from './histogram-blob.js';
import { float64BlobOfJson, histogramOfFloat64Blob } from './histogram-blob-float64.js';

/**
 * The tables of metrics rollups (migration 9, see rollup-store.ts):
 *
 * - `rollup_facts`: per call, what its rollup contribution is made of (each
 *   half as JSON, `CallFacts`), so a record that changes a call takes out
 *   exactly what the call added before. `feedback_waiting`: feedback arrived
 *   before the call's start. `completed`: the call is in `call_completions`.
 * - `call_completions`: calls in the order their start and end were both
 *   stored (what online evaluators walk with a durable cursor).
 * - `call_rollups`, `feedback_rollups`: sums per (cut, op, level, bucket,
 *   root, status / feedback name, cut value); histograms (`log-histogram.ts`)
 *   as binary counts (`histogram-blob.ts`; JSON `[[bin, count], …]` before
 *   migration 11, in the TEXT columns SQLite lets hold a BLOB). The second
 *   index serves a filter by one value of a cut (one user, one tag).
 *
 * Calls stored before this migration have no facts and are not in the
 * rollups (see docs/monitoring.md: rebuilding them).
 */
export const ROLLUP_SCHEMA = `
  CREATE TABLE rollup_facts (
    project TEXT NOT NULL,
    id TEXT NOT NULL,
    start TEXT,
    end TEXT,
    feedback_waiting INTEGER NOT NULL DEFAULT 0,
    completed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (project, id)
  ) WITHOUT ROWID;

  CREATE TABLE call_completions (
    seq INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    id TEXT NOT NULL
  );
  CREATE INDEX call_completions_project ON call_completions (project, seq);

  CREATE TABLE call_rollups (
    project TEXT NOT NULL,
    cut TEXT NOT NULL,
    op TEXT NOT NULL,
    level TEXT NOT NULL,
    t INTEGER NOT NULL,
    root INTEGER NOT NULL,
    status TEXT NOT NULL,
    value TEXT NOT NULL,
    n INTEGER NOT NULL,
    latency_sum_us INTEGER NOT NULL,
    ttft_n INTEGER NOT NULL,
    ttft_sum_us INTEGER NOT NULL,
    input_tokens REAL NOT NULL,
    output_tokens REAL NOT NULL,
    cached_tokens REAL NOT NULL,
    reasoning_tokens REAL NOT NULL,
    total_tokens REAL NOT NULL,
    cost_n INTEGER NOT NULL,
    cost_nano INTEGER NOT NULL,
    latency_bins TEXT,
    ttft_bins TEXT,
    PRIMARY KEY (project, cut, op, level, t, root, status, value)
  ) WITHOUT ROWID;
  CREATE INDEX call_rollups_value ON call_rollups (project, cut, value, level, t);

  CREATE TABLE feedback_rollups (
    project TEXT NOT NULL,
    cut TEXT NOT NULL,
    op TEXT NOT NULL,
    level TEXT NOT NULL,
    t INTEGER NOT NULL,
    root INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    n INTEGER NOT NULL,
    numeric_n INTEGER NOT NULL,
    sum REAL NOT NULL,
    sum_squares REAL NOT NULL,
    distribution TEXT,
    PRIMARY KEY (project, cut, op, level, t, root, name, value)
  ) WITHOUT ROWID;
  CREATE INDEX feedback_rollups_value ON feedback_rollups (project, cut, value, level, t);
`;

/** Migration 11: the JSON histograms of stored rollup rows rewritten as float64 counts (histogram-blob-float64.ts). */
export function rollupBinsToBlobs(db: Database): void {
  db.function('weft_bins_of_json', (text: unknown) =>
    typeof text === 'string' ? float64BlobOfJson(text) : (text as Uint8Array | null),
  );
  db.exec(`UPDATE call_rollups SET latency_bins = weft_bins_of_json(latency_bins),
    ttft_bins = weft_bins_of_json(ttft_bins) WHERE latency_bins IS NOT NULL OR ttft_bins IS NOT NULL`);
}

/** Migration 12: the float64 histograms of stored rollup rows rewritten as varints (histogram-blob.ts). */
export function rollupBinsToVarints(db: Database): void {
  db.function('weft_bins_of_float64', (blob: unknown) =>
    blob instanceof Uint8Array ? histogramBlob(histogramOfFloat64Blob(blob)) : (blob as null),
  );
  db.exec(`UPDATE call_rollups SET latency_bins = weft_bins_of_float64(latency_bins),
    ttft_bins = weft_bins_of_float64(ttft_bins) WHERE latency_bins IS NOT NULL OR ttft_bins IS NOT NULL`);
}

/**
 * The tables of monitoring state (migration 9 too): small JSON documents
 * (rules, dashboards, cursors, pending deliveries) with a version for
 * compare-and-set, and append-only logs (alert history, deliveries,
 * evaluator errors).
 */
export const MONITOR_STATE_SCHEMA = `
  CREATE TABLE monitor_documents (
    project TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (project, kind, key)
  ) WITHOUT ROWID;
  CREATE INDEX monitor_documents_kind ON monitor_documents (kind, project, key);

  CREATE TABLE monitor_log (
    seq INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    at REAL NOT NULL,
    value TEXT NOT NULL
  );
  CREATE INDEX monitor_log_key ON monitor_log (project, kind, key, at, seq);
`;
