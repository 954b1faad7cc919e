import { debuglog } from 'node:util';
import { addUsage, EVALUATE_OP, type ModelUsage, PREDICT_AND_SCORE_OP } from '@weft/protocol';
import type { WeftClient } from '../client/index.js';
import { callContext, withAttributes } from '../context/index.js';
import type { Row } from '../datasets/index.js';
import type { Checkpoint, CheckpointedResult } from './checkpoint.js';
import { RunInterruptedError } from './errors/index.js';
import { rowKey } from './row-key.js';
import type { RowResult } from './row-result.js';
import { unfinishedRuns } from './run-marker.js';

const log = debuglog('weft');

/** Attribute of a row call re-sent from the checkpoint: where the row was first recorded. */
export const RESUMED_FROM_ATTRIBUTE = 'weft.eval.resumedFrom';

/** Rows re-sent per turn before yielding, so a 100,000-row resume does not hold the loop. */
const RESEND_PER_TURN = 256;

/**
 * Ends, on the server, every run of this checkpoint whose process died (a
 * `start` marker without an `end`): its `Evaluation.evaluate` call gets an
 * end with status error and a {@link RunInterruptedError}, and so do its row
 * calls the server still lists as running. Its call shows what the rows it
 * recorded spent. The rows it finished stay under it (the run that resumed
 * re-sends them under itself). Best effort past
 * the run calls themselves: listing running rows needs the server, and a
 * server that is down only leaves those rows running.
 */
export async function closeInterruptedRuns(options: {
  client: WeftClient;
  checkpoint: Checkpoint;
  runId: string;
}): Promise<number> {
  const { client, checkpoint, runId } = options;
  const runs = unfinishedRuns(checkpoint.resumed.runs).filter((r) => r.callId !== runId);
  for (const run of runs) {
    client.tracer?.endOrphan(
      {
        id: run.callId,
        traceId: run.traceId,
        parentId: run.parentId,
        opName: EVALUATE_OP,
        startedAt: run.startedAt,
      },
      new RunInterruptedError('run', runId, checkpoint.path),
      spentBy(checkpoint.resumed.results, run.callId),
    );
    await checkpoint.markRun({ run: 'end', callId: run.callId });
    try {
      for await (const row of client.getCalls({
        parentId: run.callId,
        opName: PREDICT_AND_SCORE_OP,
        status: 'running',
      })) {
        client.tracer?.endOrphan(row, new RunInterruptedError('row', runId, checkpoint.path));
      }
    } catch (error) {
      log('evaluation resume: listing the running rows of interrupted run %s failed: %o', run.callId, error);
    }
  }
  return runs.length;
}

/**
 * What the rows a run recorded in the checkpoint spent: the usage (with its
 * cost) its call shows when a resume ends it. Rows in flight when its
 * process died left no line, so what they spent is not known.
 */
function spentBy(
  results: readonly CheckpointedResult[],
  runId: string,
): Record<string, ModelUsage> | undefined {
  let usage: Record<string, ModelUsage> | undefined;
  for (const result of results) if (result.runId === runId) usage = addUsage(usage, result.usage);
  return usage;
}

/**
 * Records each row the checkpoint already holds as a row call of the
 * resumed run — the result as checkpointed, not run again, with the usage
 * and cost it had — so the server's record of this run holds every row
 * exactly once and the run's usage covers them, like the local summary.
 * Each carries {@link RESUMED_FROM_ATTRIBUTE}: the call and run that first
 * recorded it (absent for rows checkpointed by an untraced run).
 */
export async function resendCheckpointedRows(options: {
  results: readonly CheckpointedResult[];
  rows: readonly Row[];
  rowOp: (
    fn: (row: Row, rowIndex: number, trial: number) => Promise<RowResult>,
  ) => (row: Row, rowIndex: number, trial: number) => Promise<RowResult>;
}): Promise<void> {
  const { results, rows } = options;
  const byKey = new Map<string, RowResult>();
  const resend = options.rowOp(async (_row, rowIndex, trial) => {
    const result = byKey.get(rowKey(rowIndex, trial)) as RowResult;
    // What the row spent when it ran counts in this run's usage and cost, like the rows it runs.
    const own = callContext.getStore()?.call;
    if (own !== undefined) own.childUsage = addUsage(own.childUsage, result.usage);
    return result;
  });
  for (let i = 0; i < results.length; i++) {
    const { callId, runId, ...result } = results[i] as CheckpointedResult;
    const key = rowKey(result.rowIndex, result.trial);
    byKey.set(key, result);
    const from: Record<string, string> = {};
    if (callId !== undefined) from.call = callId;
    if (runId !== undefined) from.run = runId;
    await withAttributes({ [RESUMED_FROM_ATTRIBUTE]: from }, () =>
      resend(rows[result.rowIndex] as Row, result.rowIndex, result.trial),
    );
    byKey.delete(key);
    if (i % RESEND_PER_TURN === RESEND_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
  }
}
