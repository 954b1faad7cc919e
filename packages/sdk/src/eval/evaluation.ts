import type { EvaluationSummary } from '@weft/protocol';
import { validateRows } from '../datasets/index.js';
import { optionIssue } from '../errors/index.js';
import { InvalidEvaluationOptionsError } from './errors/index.js';
import {
  type EvaluateOptions,
  type EvaluationDataset,
  type EvaluationOptions,
  evaluationOptionsSchema,
  parseEvaluateOptions,
} from './evaluation-options.js';
import { formatSummary } from './format-summary.js';
import type { ModelLike } from './model.js';
import { planRun } from './plan-run.js';
import { publishRunInputs } from './publish-run-inputs.js';
import { type EvaluationRunInfo, runEvaluation } from './run-evaluation.js';
import { defineRunOps } from './run-ops.js';
import type { Scorer } from './scorer.js';

export type { EvaluateOptions, EvaluationDataset, EvaluationOptions } from './evaluation-options.js';
export type { EvaluationRunInfo } from './run-evaluation.js';

/**
 * An evaluation: a dataset, scorers, and a number of trials. `evaluate`
 * runs a model over it and returns the summary.
 *
 * @example
 * const ev = new weft.Evaluation({ name: 'qa', dataset, scorers: [weft.scorers.exactMatch()] });
 * const summary = await ev.evaluate(model, { concurrency: 16, checkpoint: 'qa.jsonl', resume: true });
 */
export class Evaluation {
  readonly name: string;
  readonly dataset: EvaluationDataset;
  readonly trials: number;
  readonly #scorers: readonly (readonly [string, Scorer])[];
  #lastRun: EvaluationRunInfo | undefined;

  /** @throws {InvalidEvaluationOptionsError} naming the bad option (`name`, `dataset`, `scorers.2`, …). */
  constructor(options: EvaluationOptions) {
    const o = InvalidEvaluationOptionsError.parse('Evaluation', evaluationOptionsSchema, options);
    this.name = o.name;
    this.dataset = Array.isArray(o.dataset) ? validateRows(o.dataset) : o.dataset;
    this.trials = o.trials;
    const entries: [string, Scorer][] = Array.isArray(o.scorers)
      ? o.scorers.map((scorer, i) => {
          if (!scorer.name) {
            throw new InvalidEvaluationOptionsError(
              'Evaluation',
              optionIssue(
                `scorers.${i}`,
                'is an anonymous function; name it (function myScore(…) {…}) or pass scorers as a record { name: scorer }',
                scorer,
              ),
            );
          }
          return [scorer.name, scorer];
        })
      : Object.entries(o.scorers);
    const seen = new Set<string>();
    for (const [name] of entries) {
      if (seen.has(name)) {
        throw new InvalidEvaluationOptionsError(
          'Evaluation',
          optionIssue(
            'scorers',
            `has two scorers named ${JSON.stringify(name)}; pass a record to name them apart`,
            entries.map(([scorerName]) => scorerName),
          ),
        );
      }
      seen.add(name);
    }
    this.#scorers = entries;
  }

  /** What the last completed `evaluate` did (results, resumed rows, call id). */
  get lastRun(): EvaluationRunInfo | undefined {
    return this.#lastRun;
  }

  /**
   * Runs `model` on every row × trial and scores each output, as one traced
   * `Evaluation.evaluate` call with a `Evaluation.predict_and_score` child
   * per row. Resolves with the summary (also the call's output), or rejects
   * with the signal's reason when cancelled.
   *
   * @throws {InvalidEvaluationOptionsError} a bad option or model.
   * @throws {CheckpointOpenFailedError} the checkpoint cannot be opened.
   */
  async evaluate(model: ModelLike, options: EvaluateOptions = {}): Promise<EvaluationSummary> {
    // The steps: plan the run (rows, checkpoint, what is left), publish its inputs, define its ops, run.
    const o = parseEvaluateOptions(model, options);
    const plan = await planRun(this.dataset, this.trials, model, o);
    const datasetInput = await publishRunInputs(plan, this.name);
    const ops = defineRunOps(plan);
    let record: EvaluationRunInfo | undefined;
    const settings = {
      evaluation: this.name,
      scorers: this.#scorers,
      options: o,
      onRecord: (r: EvaluationRunInfo) => {
        record = r;
      },
    };
    const summary = await ops.runOp(() => runEvaluation(plan, ops, settings))(
      this.name,
      plan.isModel ? model : plan.modelName,
      datasetInput,
      {
        trials: this.trials,
        scorers: this.#scorers.map(([n]) => n),
        concurrency: o.concurrency,
        ...(o.checkpoint === undefined ? {} : { checkpoint: o.checkpoint, resume: o.resume }),
      },
    );
    if (record !== undefined) this.#lastRun = record;
    const print = o.print ?? process.stdout.isTTY === true;
    if (print !== false) (print === true ? process.stdout : print).write(`${formatSummary(summary)}\n`);
    return summary;
  }
}
