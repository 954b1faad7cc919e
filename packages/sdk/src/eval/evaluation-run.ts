import { AsyncResource } from 'node:async_hooks';
import { debuglog } from 'node:util';
import type { ExceptionInfo, ScoreValue } from '@weft/protocol';
import PQueue from 'p-queue';
import { exceptionInfo, addUsage, usageOf } from '../calls/index.js';
import { callContext } from '../context/index.js';
import type { Row } from '../datasets/index.js';
import type { Checkpoint } from './checkpoint.js';
import { InvalidScoreError, ScorerFailedError } from './errors/index.js';
import type { PredictContext } from './model.js';
import type { Progress } from './progress.js';
import { AdaptiveConcurrency, type RateLimitOptions } from './rate-limit.js';
import type { RowResult } from './row-result.js';
import { RowSignals } from './row-signals.js';
import { isScoreValue } from './score-value.js';
import type { Scorer } from './scorer.js';

/** Everything one run needs, resolved by `Evaluation.evaluate`. */
export interface RunPlan {
  rows: readonly Row[];
  digests: readonly string[];
  /** (rowIndex, trial) units to run, in order. */
  todo: readonly { rowIndex: number; trial: number }[];
  scorers: readonly (readonly [string, Scorer])[];
  /** Calls the model once (traced as its own op when it is a `Model`). */
  predict: (row: Row, context: PredictContext) => unknown;
  /** Wraps the per-row function as the traced `Evaluation.predict_and_score` op. */
  rowOp: (
    fn: (row: Row, rowIndex: number, trial: number) => Promise<RowResult>,
  ) => (row: Row, rowIndex: number, trial: number) => Promise<RowResult>;
  concurrency: number;
  rateLimit: RateLimitOptions | undefined;
  checkpoint: Checkpoint | undefined;
  progress: Progress;
  signal: AbortSignal;
  onResult: ((result: RowResult) => void) | undefined;
  /** The `Evaluation.evaluate` call, written with each checkpointed row. */
  runId: string | undefined;
}

/** What a run produced: the results of the rows it ran (outputs dropped), and counters. */
export interface RunOutcome {
  results: RowResult[];
  abandoned: number;
  checkpointFailures: number;
}

const log = debuglog('weft');

/** Rows waiting in the queue beyond the running ones. */
const FEED_AHEAD = 64;

/** Longest the runner holds the event loop before yielding a turn. */
const YIELD_AFTER_MS = 5;

/** A row result without its output: what the summary and `lastRun` keep, so a long run's outputs are not all held. */
export const lean = (r: RowResult): RowResult => {
  const { output: _output, ...rest } = r;
  return { ...rest, output: undefined };
};

/**
 * Runs the planned rows with bounded, rate-limit-adaptive concurrency. Each
 * row runs inside the caller's context (the `Evaluation.evaluate` call), as
 * one traced `Evaluation.predict_and_score` call: predict, score, append to
 * the checkpoint, and return the row result as the call's output. A row's
 * failure is recorded in its result and never rejects the run; on abort,
 * queued rows are dropped and rows in flight finish (or are abandoned when
 * they fail because of the abort), so the checkpoint holds only whole rows.
 */
export async function executeRun(plan: RunPlan): Promise<RunOutcome> {
  const queue = new PQueue({ concurrency: plan.concurrency });
  const limiter = new AdaptiveConcurrency(plan.concurrency, plan.rateLimit, {
    onChange: (n) => {
      queue.concurrency = n;
    },
  });
  const results: RowResult[] = [];
  let abandoned = 0;
  let checkpointFailures = 0;
  const { signal } = plan;

  const rowSignals = new RowSignals(signal);
  const predictAndScore = async (row: Row, rowIndex: number, trial: number): Promise<RowResult> => {
    const rowSignal = rowSignals.open();
    try {
      return await scoreRow(row, rowIndex, trial, rowSignal.signal);
    } finally {
      rowSignal.release();
    }
  };
  const scoreRow = async (
    row: Row,
    rowIndex: number,
    trial: number,
    rowSignal: AbortSignal,
  ): Promise<RowResult> => {
    // The record of THIS call (absent when tracing is off): its children's usage rolls up into it.
    const own = callContext.getStore()?.call;
    const started = performance.now();
    // null, not undefined, when the model fails: JSON drops undefined, and the
    // recorded schema requires the key (in the checkpoint line and the call output).
    let output: unknown = null;
    let error: unknown;
    let failed = false;
    try {
      output = await limiter.run(
        async () => plan.predict(row, { rowIndex, trial, signal: rowSignal }),
        rowSignal,
      );
      if (own !== undefined && own.childUsage === undefined) {
        // A plain-function model has no child call; its output may still carry usage.
        const usage = usageOf(output);
        if (usage !== undefined) own.childUsage = addUsage(undefined, usage);
      }
    } catch (thrown) {
      if (signal.aborted) throw thrown; // abandoned by cancellation, not a row failure
      failed = true;
      error = thrown;
    }
    const latencyMs = performance.now() - started;
    const scores: Record<string, ScoreValue> = {};
    if (!failed) {
      const failures: { scorer: string; error: unknown }[] = [];
      for (const [name, scorer] of plan.scorers) {
        try {
          const value = await scorer({ output, row });
          if (!isScoreValue(value)) throw new InvalidScoreError(name, value);
          scores[name] = value;
        } catch (thrown) {
          failures.push({ scorer: name, error: thrown });
        }
      }
      if (failures.length > 0) error = new ScorerFailedError(failures);
    }
    const result: RowResult = {
      rowIndex,
      rowDigest: plan.digests[rowIndex],
      trial,
      output,
      scores,
      latencyMs,
    };
    let info: ExceptionInfo | undefined = error === undefined && !failed ? undefined : exceptionInfo(error);
    if (info !== undefined) result.error = info;
    const usage = own?.childUsage ?? (own === undefined ? usageOf(output) : undefined);
    if (usage !== undefined) result.usage = addUsage(undefined, usage);
    if (plan.checkpoint !== undefined) {
      const outcome = await plan.checkpoint.append(result, {
        inputs: row,
        callId: own?.id,
        runId: plan.runId,
      });
      if (outcome.status === 'failed') {
        checkpointFailures++;
        info ??= exceptionInfo(outcome.error);
        result.error = info;
      }
    }
    return result;
  };
  const rowCall = plan.rowOp(predictAndScore);

  // With a model that answers at once, rows finish in microtasks and p-queue
  // starts the next row in the same turn: a 100,000-row run would hold the
  // event loop for its whole length. Yield to the loop whenever the runner
  // has held it for YIELD_AFTER_MS.
  // One shared yield: every row that finishes while it is pending waits on
  // the same turn. (A yield per row would give each of the N resumed rows a
  // fresh budget inside one check phase, holding the loop N × as long.)
  let heldSince = performance.now();
  let pendingYield: Promise<void> | undefined;
  const yieldIfHeld = (): Promise<void> | undefined => {
    if (pendingYield !== undefined) return pendingYield;
    if (performance.now() - heldSince < YIELD_AFTER_MS) return undefined;
    pendingYield = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      heldSince = performance.now();
      pendingYield = undefined;
    });
    return pendingYield;
  };

  const onAbort = () => {
    queue.clear();
    rowSignals.abortAll();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (const { rowIndex, trial } of plan.todo) {
      if (signal.aborted) break;
      const row = plan.rows[rowIndex] as Row;
      // Bound to this (the evaluate call's) async context: p-queue starts a
      // task from whichever task just finished, whose context is a row's.
      const task = AsyncResource.bind(async () => {
        try {
          const result = await rowCall(row, rowIndex, trial);
          results.push(lean(result));
          plan.progress.advance({ error: result.error !== undefined });
          try {
            plan.onResult?.(result);
          } catch (error) {
            log('onResult threw for row %d trial %d: %o', rowIndex, trial, error);
          }
          await yieldIfHeld();
        } catch (error) {
          // An abandoned (cancelled) row: predictAndScore records every row failure in its result.
          abandoned++;
          if (!signal.aborted)
            log('row %d trial %d was lost to an internal error: %o', rowIndex, trial, error);
        }
      });
      // Feed the queue as it drains instead of queueing every row up front:
      // memory stays flat for 100,000 rows, and the feeding loop never holds
      // the event loop for more than a few rows.
      if (queue.size >= FEED_AHEAD) await queue.onSizeLessThan(FEED_AHEAD);
      void queue.add(task);
    }
    await queue.onIdle();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return { results, abandoned, checkpointFailures };
}
