import { EVALUATE_OP, type EvaluationSummary, PREDICT_AND_SCORE_OP } from '@weft/protocol';
import { op as defaultOp } from '../client/index.js';
import type { Row } from '../datasets/index.js';
import type { Model, PredictContext } from './model.js';
import type { PlannedRun } from './plan-run.js';
import type { RowResult } from './row-result.js';

/**
 * Names recorded inputs by position. The op machinery names inputs after the
 * function's parameters as written in its source text, which a compiler may
 * rename (esbuild turns a parameter shadowing an outer name into `model2`);
 * the recorded contract must not depend on that.
 */
function positional(names: readonly string[]) {
  return (inputs: Record<string, unknown>): Record<string, unknown> => {
    const values = Object.values(inputs);
    return Object.fromEntries(names.map((name, i) => [name, values[i]]));
  };
}

/** A row's function, as the runner calls it. */
export type RowFunction = (row: Row, rowIndex: number, trial: number) => Promise<RowResult>;

/** The traced parts of a run, made by {@link defineRunOps}. */
export interface RunOps {
  /** Calls the model once: the `<model>.predict` op for a `Model`, the function itself otherwise. */
  predict: (row: Row, context: PredictContext) => unknown;
  /** Wraps a row's function as the traced `Evaluation.predict_and_score` op. */
  rowOp: (fn: RowFunction) => RowFunction;
  /** Wraps the run's body as the traced `Evaluation.evaluate` op (the root of the run's calls). */
  runOp: (
    body: () => Promise<EvaluationSummary>,
  ) => (
    evaluation: string,
    model: unknown,
    dataset: unknown,
    config: Record<string, unknown>,
  ) => Promise<EvaluationSummary>;
}

/**
 * The ops of a run, on the run's client (the default `op` when untraced):
 *
 * ```
 * Evaluation.evaluate(evaluation, model, dataset, config)      one per run
 * └─ Evaluation.predict_and_score(row, rowIndex, trial)        one per row × trial
 *    └─ <model>.predict(self, row)                             a Model's predict
 * ```
 */
export function defineRunOps(plan: PlannedRun): RunOps {
  const op = plan.client?.op ?? defaultOp;
  const { model, trials } = plan;
  const predict = plan.isModel
    ? op(
        async function predict(model: Model, row: Row, context: PredictContext) {
          return model.predict(row, context);
        },
        { name: `${plan.modelName}.predict`, postprocessInputs: positional(['self', 'row']) },
      ).bind(undefined, model as Model)
    : (model as (row: Row, context: PredictContext) => unknown);
  const rowOp = (fn: RowFunction): RowFunction =>
    op(
      async function predict_and_score(row: Row, rowIndex: number, trial: number) {
        return fn(row, rowIndex, trial);
      },
      {
        name: PREDICT_AND_SCORE_OP,
        postprocessInputs: positional(['row', 'rowIndex', 'trial']),
        displayName: (inputs) =>
          `row ${String(inputs.rowIndex)}${trials > 1 ? ` trial ${String(inputs.trial)}` : ''}`,
      },
    );
  const runOp: RunOps['runOp'] = (body) =>
    op(
      // The parameters are what the run's call records; the body has them already.
      async function evaluate(_evaluation: string, _model: unknown, _dataset: unknown, _config: unknown) {
        return body();
      },
      {
        name: EVALUATE_OP,
        postprocessInputs: positional(['evaluation', 'model', 'dataset', 'config']),
        // A resume closes a crashed run by its id, so the run must be on the server from its first moment.
        sendStartAtOnce: true,
      },
    );
  return { predict, rowOp, runOp };
}
