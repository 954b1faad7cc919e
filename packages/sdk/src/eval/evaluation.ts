import type { Writable } from 'node:stream';
import { debuglog } from 'node:util';
import {
  EVALUATE_OP,
  type EvaluationSummary,
  OBJECT_NAME,
  PREDICT_AND_SCORE_OP,
  tableDigest,
} from '@weft/protocol';
import { z } from 'zod';
import { getDefaultClient, op as defaultOp, type WeftClient } from '../client/index.js';
import { currentCall } from '../context/index.js';
import { Dataset, type Row, validateRows, rowDigests } from '../datasets/index.js';
import { objectNameOf } from '../objects/index.js';
import { Checkpoint } from './checkpoint.js';
import { InvalidEvaluationOptionsError } from './errors/index.js';
import { executeRun, lean } from './evaluation-run.js';
import { formatSummary } from './format-summary.js';
import { Model, type ModelLike, type PredictContext } from './model.js';
import { createProgress, type ProgressStream, SILENT_PROGRESS } from './progress.js';
import { type RateLimitOptions, rateLimitOptionsSchema } from './rate-limit.js';
import { closeInterruptedRuns, resendCheckpointedRows } from './resume-run.js';
import { rowKey } from './row-key.js';
import type { RowResult } from './row-result.js';
import type { Scorer } from './scorer.js';
import { summarize } from './summary.js';

const log = debuglog('weft');

const isFunction = (v: unknown): v is Scorer => typeof v === 'function';
const scorerSchema = z.custom<Scorer>(isFunction, 'must be a function ({ output, row }) => score');

const evaluationOptionsSchema = z.strictObject({
  name: z
    .string()
    .regex(OBJECT_NAME, 'must be 1–256 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  dataset: z.custom<Dataset | readonly Row[]>(
    (v) => v instanceof Dataset || Array.isArray(v),
    'must be a weft.Dataset or an array of row objects',
  ),
  scorers: z.union([z.array(scorerSchema), z.record(z.string().min(1), scorerSchema)]).default([]),
  trials: z.number().int().min(1).max(1_000).default(1),
});

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

/** Options of `new Evaluation`. */
export interface EvaluationOptions {
  /** Name of the evaluation (recorded on the run). */
  name: string;
  /** The rows to evaluate on. */
  dataset: Dataset | readonly Row[];
  /**
   * Scorers, as an array (each named by its function name, so name them) or
   * a record of name → scorer. @default []
   */
  scorers?: readonly Scorer[] | Record<string, Scorer>;
  /** Runs of each row; with more than one, the summary reports per-row variance. @default 1 */
  trials?: number;
}

const evaluateOptionsSchema = z.strictObject({
  concurrency: z.number().int().min(1).max(1_024).default(8),
  checkpoint: z.string().min(1).optional(),
  resume: z.boolean().default(false),
  syncCheckpoint: z.boolean().default(true),
  signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal, 'must be an AbortSignal').optional(),
  print: z
    .union([z.boolean(), z.custom<Writable>((v) => typeof (v as Writable)?.write === 'function')])
    .optional(),
  progress: z
    .union([z.literal(false), z.custom<ProgressStream>((v) => typeof (v as Writable)?.write === 'function')])
    .optional(),
  rateLimit: rateLimitOptionsSchema.optional(),
  client: z
    .custom<WeftClient>((v) => typeof v === 'object' && v !== null && 'op' in v, 'must be a WeftClient')
    .optional(),
  onResult: z
    .custom<(result: RowResult) => void>((v) => typeof v === 'function', 'must be a function')
    .optional(),
});

/** Options of {@link Evaluation.evaluate}. */
export interface EvaluateOptions {
  /** Rows in flight at once (lowered adaptively under rate limits). @default 8 */
  concurrency?: number;
  /** Path of a JSONL checkpoint: each row result is appended as the row completes. */
  checkpoint?: string;
  /** Skip rows already in `checkpoint` and run only the rest. @default false */
  resume?: boolean;
  /** fdatasync each checkpointed row before going on (see {@link Checkpoint}). @default true */
  syncCheckpoint?: boolean;
  /** Cancels the run: queued rows are dropped, the checkpoint stays resumable, `evaluate` rejects with the reason. */
  signal?: AbortSignal;
  /** Print the summary table: `true` to stdout, or to a stream. @default when stdout is a TTY */
  print?: boolean | Writable;
  /** Progress bar stream (drawn only on a TTY), or `false`. @default process.stderr */
  progress?: false | ProgressStream;
  /** How rate limits are handled. */
  rateLimit?: RateLimitOptions;
  /** @default the default client (`weft.init`); without one, the run is not traced. */
  client?: WeftClient;
  /**
   * Called with each row result once it is recorded (after its checkpoint
   * line is durable), in completion order. Runs on the runner's turn: keep it
   * cheap; what it throws is ignored (and logged to `NODE_DEBUG=weft`).
   */
  onResult?: (result: RowResult) => void;
}

/** What the last `evaluate` of an {@link Evaluation} did, beyond its summary. */
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
  readonly dataset: Dataset | readonly Row[];
  readonly trials: number;
  readonly #scorers: readonly (readonly [string, Scorer])[];
  #lastRun: EvaluationRunInfo | undefined;

  /** @throws {InvalidEvaluationOptionsError} naming the bad option (`name`, `dataset`, `scorers.2`, …). */
  constructor(options: EvaluationOptions) {
    const o = InvalidEvaluationOptionsError.parse('Evaluation', evaluationOptionsSchema, options);
    this.name = o.name;
    this.dataset = o.dataset instanceof Dataset ? o.dataset : validateRows(o.dataset);
    this.trials = o.trials;
    const entries: [string, Scorer][] = Array.isArray(o.scorers)
      ? o.scorers.map((scorer, i) => {
          if (!scorer.name) {
            throw new InvalidEvaluationOptionsError(
              'Evaluation',
              `scorers.${i}`,
              'an anonymous function; name it (function myScore(…) {…}) or pass scorers as a record { name: scorer }',
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
          'scorers',
          `two scorers are named ${JSON.stringify(name)}; pass a record to name them apart`,
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
    const o = InvalidEvaluationOptionsError.parse('evaluate', evaluateOptionsSchema, options);
    const isModel = Model.isModel(model);
    if (!isModel && typeof model !== 'function') {
      throw new InvalidEvaluationOptionsError(
        'evaluate',
        'model',
        'must be a weft.Model or a function of a row',
      );
    }
    if (o.resume && o.checkpoint === undefined) {
      throw new InvalidEvaluationOptionsError(
        'evaluate',
        'resume',
        '`resume: true` needs a `checkpoint` path to resume from',
      );
    }
    const client = o.client ?? getDefaultClient();
    const op = client?.op ?? defaultOp;
    const dataset = this.dataset;
    const rows = dataset instanceof Dataset ? dataset.rows : dataset;
    const digests = dataset instanceof Dataset ? await dataset.rowDigests() : await rowDigests(rows);
    const modelName = isModel ? objectNameOf(model) : (model as { name?: string }).name || 'model';

    let datasetInput: unknown = { rowCount: rows.length, digest: tableDigest(digests) };
    if (client !== undefined && !client.closed) {
      if (dataset instanceof Dataset) {
        try {
          datasetInput = (await dataset.publish({ client })).ref.uri;
        } catch (error) {
          log(
            'evaluation %s: publishing dataset %s failed, recording its digest only: %o',
            this.name,
            dataset.name,
            error,
          );
        }
      }
      if (isModel) {
        // Published once, so every call that holds it records its version ref.
        await client
          .publish(model)
          .catch((error: unknown) => log('evaluation %s: publishing the model failed: %o', this.name, error));
      }
    }

    const checkpoint =
      o.checkpoint === undefined
        ? undefined
        : await Checkpoint.open(o.checkpoint, {
            resume: o.resume,
            syncEachRow: o.syncCheckpoint,
            ...(client === undefined ? {} : { values: client.valueRules }),
          });
    // A checkpointed row counts only if it is the same row (same digest at the same index) and trial.
    // The same rows in full (outputs included), for re-sending under this run.
    const resumed = (checkpoint?.resumed.results ?? []).filter(
      (r) =>
        r.rowIndex < rows.length &&
        r.trial < this.trials &&
        (r.rowDigest === undefined || r.rowDigest === digests[r.rowIndex]),
    );
    const previous = resumed.map(lean);
    const done = new Set(previous.map((r) => rowKey(r.rowIndex, r.trial)));
    const todo: { rowIndex: number; trial: number }[] = [];
    for (let rowIndex = 0; rowIndex < rows.length; rowIndex++) {
      for (let trial = 0; trial < this.trials; trial++) {
        if (!done.has(rowKey(rowIndex, trial))) todo.push({ rowIndex, trial });
      }
    }

    const predict = isModel
      ? op(
          async function predict(model: Model, row: Row, context: PredictContext) {
            return model.predict(row, context);
          },
          { name: `${modelName}.predict`, postprocessInputs: positional(['self', 'row']) },
        ).bind(undefined, model as Model)
      : (model as (row: Row, context: PredictContext) => unknown);
    const trials = this.trials;
    const rowOp = (fn: (row: Row, rowIndex: number, trial: number) => Promise<RowResult>) =>
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

    const signal = o.signal ?? new AbortController().signal;
    const name = this.name;
    const scorers = this.#scorers;
    let callId: string | undefined;
    let info: Omit<EvaluationRunInfo, 'callId'> | undefined;
    const evaluate = op(
      async function evaluate(
        evaluation: string,
        model: unknown,
        dataset: unknown,
        config: Record<string, unknown>,
      ) {
        void evaluation;
        void model;
        void dataset;
        void config;
        const run = currentCall();
        callId = run?.id;
        // Traced with a checkpoint: mark the run, close runs whose process died,
        // and record the rows they finished under this run (see docs/evaluations.md).
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
            log('evaluation %s: closing interrupted runs failed: %o', name, error),
          );
        if (traced !== undefined) await resendCheckpointedRows({ results: resumed, rows, rowOp });
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
            digests,
            todo,
            scorers,
            predict,
            rowOp,
            concurrency: o.concurrency,
            rateLimit: o.rateLimit,
            checkpoint,
            progress,
            signal,
            onResult: o.onResult,
            runId: callId,
          });
        } finally {
          progress.stop();
          await closing;
          if (traced !== undefined) await traced.checkpoint.markRun({ run: 'end', callId: traced.run.id });
          await checkpoint?.close();
        }
        signal.throwIfAborted();
        const results = [...previous, ...outcome.results];
        info = {
          results,
          resumed: previous.length,
          ran: outcome.results.length,
          checkpointFailures: outcome.checkpointFailures,
          checkpointRepair: {
            tornBytes: checkpoint?.resumed.tornBytes ?? 0,
            corruptLines: checkpoint?.resumed.corruptLines ?? [],
          },
        };
        return summarize({ evaluation: name, model: modelName, rows: rows.length, trials }, results);
      },
      {
        name: EVALUATE_OP,
        postprocessInputs: positional(['evaluation', 'model', 'dataset', 'config']),
        // A resume closes a crashed run by its id, so the run must be on the server from its first moment.
        sendStartAtOnce: true,
      },
    );

    const summary = await evaluate(this.name, isModel ? model : modelName, datasetInput, {
      trials,
      scorers: scorers.map(([n]) => n),
      concurrency: o.concurrency,
      ...(o.checkpoint === undefined ? {} : { checkpoint: o.checkpoint, resume: o.resume }),
    });
    if (info !== undefined) this.#lastRun = { callId, ...info };
    const print = o.print ?? process.stdout.isTTY === true;
    if (print !== false) (print === true ? process.stdout : print).write(`${formatSummary(summary)}\n`);
    return summary;
  }
}
