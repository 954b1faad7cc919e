import { debuglog } from 'node:util';
import type { EvaluationSummary } from '@weft/protocol';
import { currentCall } from '../context/index.js';
import type { ResolvedEvaluateOptions } from './evaluation-options.js';
import { executeRun } from './evaluation-run.js';
import type { PlannedRun } from './plan-run.js';
import { createProgress, SILENT_PROGRESS } from './progress.js';
import { closeInterruptedRuns, resendCheckpointedRows } from './resume-run.js';
import type { RowResult } from './row-result.js';
import type { RunOps } from './run-ops.js';
import type { Scorer } from './scorer.js';
import { summarize } from './summary.js';

const log = debuglog('weft');

/** What the last `evaluate` of an {@link Evaluation} did, beyond its summary (`Evaluation.lastRun`). */
export interface EvaluationRunInfo {
  /** Id of the `Evaluation.evaluate` call (undefined when not traced). */
  callId: string | undefined;
  /** Every row result of the run, resumed ones included, without outputs. */
  results: RowResult[];
  /** Rows skipped because the checkpoint already had them. */
  resumed: number;
  /** Rows run by this call. */
  ran: number;
  /** Rows whose result could not be written to the checkpoint. */
  checkpointFailures: number;
  /** What resuming repaired: bytes of a torn last line cut, complete lines that were skipped as corrupt. */
  checkpointRepair: { tornBytes: number; corruptLines: number[] };
}

/** What the run's body needs besides the plan and the ops. */
export interface RunSettings {
  evaluation: string;
  scorers: readonly (readonly [string, Scorer])[];
  options: ResolvedEvaluateOptions;
  /** Called once with the run's record, before the summary is returned. */
  onRecord: (record: EvaluationRunInfo) => void;
}

/**
 * The body of the `Evaluation.evaluate` call: runs inside it, so every row
 * call is its child. Traced with a checkpoint, it marks the run in the
 * checkpoint, closes the runs whose process died and re-sends the rows they
 * finished under this run (see docs/evaluations.md); then it runs the rows
 * left, with a progress bar, and summarizes every row, resumed ones included.
 * Rejects with the signal's reason when cancelled.
 */
export async function runEvaluation(
  plan: PlannedRun,
  ops: RunOps,
  settings: RunSettings,
): Promise<EvaluationSummary> {
  const { client, checkpoint, rows, trials, previous } = plan;
  const { options: o, evaluation } = settings;
  const signal = o.signal ?? new AbortController().signal;
  const run = currentCall();
  const traced =
    client !== undefined && checkpoint !== undefined && run !== undefined
      ? { client, checkpoint, run }
      : undefined;
  if (traced !== undefined) {
    const { id, traceId, parentId, startedAt } = traced.run;
    await traced.checkpoint.markRun({ run: 'start', callId: id, traceId, parentId, startedAt });
  }
  const closing =
    traced &&
    closeInterruptedRuns({
      client: traced.client,
      checkpoint: traced.checkpoint,
      runId: traced.run.id,
    }).catch((error: unknown) =>
      log('evaluation %s: closing interrupted runs failed: %o', evaluation, error),
    );
  if (traced !== undefined) await resendCheckpointedRows({ results: plan.resumed, rows, rowOp: ops.rowOp });
  const progress =
    o.progress === false
      ? SILENT_PROGRESS
      : createProgress({
          total: rows.length * trials,
          done: previous.length,
          stream: o.progress ?? process.stderr,
        });
  let outcome: Awaited<ReturnType<typeof executeRun>>;
  try {
    outcome = await executeRun({
      rows,
      digests: plan.digests,
      todo: plan.todo,
      scorers: settings.scorers,
      predict: ops.predict,
      rowOp: ops.rowOp,
      concurrency: o.concurrency,
      rateLimit: o.rateLimit,
      checkpoint,
      progress,
      signal,
      onResult: o.onResult,
      runId: run?.id,
    });
  } finally {
    progress.stop();
    await closing;
    if (traced !== undefined) await traced.checkpoint.markRun({ run: 'end', callId: traced.run.id });
    await checkpoint?.close();
  }
  signal.throwIfAborted();
  const results = [...previous, ...outcome.results];
  settings.onRecord({
    callId: run?.id,
    results,
    resumed: previous.length,
    ran: outcome.results.length,
    checkpointFailures: outcome.checkpointFailures,
    checkpointRepair: {
      tornBytes: checkpoint?.resumed.tornBytes ?? 0,
      corruptLines: checkpoint?.resumed.corruptLines ?? [],
    },
  });
  return summarize({ evaluation, model: plan.modelName, rows: rows.length, trials }, results);
}
