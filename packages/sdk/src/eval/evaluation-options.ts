import type { Writable } from 'node:stream';
import { OBJECT_NAME } from '@weft/protocol';
import { z } from 'zod';
import type { WeftClient } from '../client/index.js';
import { Dataset, RemoteDataset, type Row } from '../datasets/index.js';
import { optionIssue } from '../errors/index.js';
import { InvalidEvaluationOptionsError } from './errors/index.js';
import { Model, type ModelLike } from './model.js';
import type { ProgressStream } from './progress.js';
import { type RateLimitOptions, rateLimitOptionsSchema } from './rate-limit.js';
import type { RowResult } from './row-result.js';
import type { Scorer } from './scorer.js';

/**
 * What `new Evaluation({ dataset })` takes: rows in memory (a `Dataset` or an
 * array of row objects), a published dataset opened with `openDataset`, or a
 * published dataset's name, version, label or ref (`'good-answers'`,
 * `'good-answers:production'`, `'good-answers:v3'`, `weft:///…`), opened when
 * `evaluate` runs, through its client.
 */
export type EvaluationDataset = Dataset | readonly Row[] | RemoteDataset | string;

/** Options of `new Evaluation`. */
export interface EvaluationOptions {
  /** Name of the evaluation (recorded on the run). */
  name: string;
  /** The rows to evaluate on (see {@link EvaluationDataset}). */
  dataset: EvaluationDataset;
  /**
   * Scorers, as an array (each named by its function name, so name them) or
   * a record of name → scorer. @default []
   */
  scorers?: readonly Scorer[] | Record<string, Scorer>;
  /** Runs of each row; with more than one, the summary reports per-row variance. @default 1 */
  trials?: number;
}

const isFunction = (v: unknown): v is Scorer => typeof v === 'function';
const scorerSchema = z.custom<Scorer>(isFunction, 'must be a function ({ output, row }) => score');

export const evaluationOptionsSchema = z.strictObject({
  name: z
    .string()
    .regex(OBJECT_NAME, 'must be 1–256 letters, digits, ".", "_" or "-", starting with a letter or digit'),
  dataset: z.custom<EvaluationDataset>(
    (v) =>
      v instanceof Dataset ||
      v instanceof RemoteDataset ||
      Array.isArray(v) ||
      (typeof v === 'string' && v.length > 0),
    "must be a weft.Dataset, an array of row objects, a RemoteDataset (openDataset) or a published dataset's name or ref, like 'qa:production'",
  ),
  scorers: z.union([z.array(scorerSchema), z.record(z.string().min(1), scorerSchema)]).default([]),
  trials: z.number().int().min(1).max(1_000).default(1),
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

/** `evaluate`'s options with their defaults applied. */
export type ResolvedEvaluateOptions = z.output<typeof evaluateOptionsSchema>;

/**
 * Validates `evaluate(model, options)`.
 * @throws {InvalidEvaluationOptionsError} a bad option or model, naming it.
 */
export function parseEvaluateOptions(model: ModelLike, options: EvaluateOptions): ResolvedEvaluateOptions {
  const o = InvalidEvaluationOptionsError.parse('evaluate', evaluateOptionsSchema, options);
  if (!Model.isModel(model) && typeof model !== 'function') {
    throw new InvalidEvaluationOptionsError(
      'evaluate',
      optionIssue('model', 'must be a weft.Model or a function of a row', model),
    );
  }
  if (o.resume && o.checkpoint === undefined) {
    throw new InvalidEvaluationOptionsError(
      'evaluate',
      optionIssue('resume', 'needs a `checkpoint` path to resume from', o.resume),
    );
  }
  return o;
}
