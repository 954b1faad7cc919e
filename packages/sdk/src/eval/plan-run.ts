import { getDefaultClient, type WeftClient } from '../client/index.js';
import type { Dataset, Row } from '../datasets/index.js';
import { objectNameOf } from '../objects/index.js';
import { Checkpoint, type CheckpointedResult } from './checkpoint.js';
import type { EvaluationDataset, ResolvedEvaluateOptions } from './evaluation-options.js';
import { lean } from './evaluation-run.js';
import { Model, type ModelLike } from './model.js';
import { rowKey } from './row-key.js';
import { runRows } from './run-rows.js';
import type { RowResult } from './row-result.js';

/** Everything an `evaluate` call decided before it runs anything. */
export interface PlannedRun {
  /** The client that traces the run; `undefined`: not traced. */
  client: WeftClient | undefined;
  model: ModelLike;
  /** True when `model` is a `weft.Model` (published, its `predict` traced as an op). */
  isModel: boolean;
  /** The model's object name, or the function's name (`model` when anonymous). */
  modelName: string;
  /** A `Dataset` in memory, published by the run (an array is recorded by its digest). */
  dataset: Dataset | undefined;
  /** The published dataset version the rows were read from, recorded as the run's dataset. */
  publishedDataset: string | undefined;
  rows: readonly Row[];
  /** Each row's digest, by index. */
  digests: readonly string[];
  trials: number;
  checkpoint: Checkpoint | undefined;
  /** Rows the checkpoint already holds for this dataset and trial count, in full (for re-sending under this run). */
  resumed: readonly CheckpointedResult[];
  /** The same rows without their outputs (for the summary and `lastRun`). */
  previous: RowResult[];
  /** (rowIndex, trial) units still to run, in order. */
  todo: { rowIndex: number; trial: number }[];
}

/**
 * Plans a run: the client, the rows (read from the server for a published
 * dataset) and their digests, the checkpoint
 * (opened, and read when resuming) and which row × trial units are left.
 * A checkpointed row counts as done only if it is the same row (same digest
 * at the same index) and trial.
 *
 * @throws {CheckpointOpenFailedError} the checkpoint cannot be opened.
 */
export async function planRun(
  dataset: EvaluationDataset,
  trials: number,
  model: ModelLike,
  o: ResolvedEvaluateOptions,
): Promise<PlannedRun> {
  const client = o.client ?? getDefaultClient();
  const isModel = Model.isModel(model);
  const { rows, digests, local, published } = await runRows(dataset, client);
  const checkpoint =
    o.checkpoint === undefined
      ? undefined
      : await Checkpoint.open(o.checkpoint, {
          resume: o.resume,
          syncEachRow: o.syncCheckpoint,
          ...(client === undefined ? {} : { values: client.valueRules }),
        });
  const resumed = (checkpoint?.resumed.results ?? []).filter(
    (r) =>
      r.rowIndex < rows.length &&
      r.trial < trials &&
      (r.rowDigest === undefined || r.rowDigest === digests[r.rowIndex]),
  );
  const done = new Set(resumed.map((r) => rowKey(r.rowIndex, r.trial)));
  const todo: PlannedRun['todo'] = [];
  for (let rowIndex = 0; rowIndex < rows.length; rowIndex++) {
    for (let trial = 0; trial < trials; trial++) {
      if (!done.has(rowKey(rowIndex, trial))) todo.push({ rowIndex, trial });
    }
  }
  return {
    client,
    model,
    isModel,
    modelName: isModel ? objectNameOf(model) : (model as { name?: string }).name || 'model',
    dataset: local,
    publishedDataset: published,
    rows,
    digests,
    trials,
    checkpoint,
    resumed,
    previous: resumed.map(lean),
    todo,
  };
}
