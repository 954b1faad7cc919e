import { z } from 'zod';
import { digest } from './names.js';
import { exceptionInfo, modelUsage } from './calls.js';

// How evaluations are recorded as calls: a run is one call of EVALUATE_OP
// (wire/constants.ts) whose output is an EvaluationSummary; each row (and
// trial) is a child call of PREDICT_AND_SCORE_OP whose output is an
// EvaluationRowResult.

/** A scorer's value for one row: a number, a boolean, or an object of them. */
export const scoreValue = z.union([
  z.number(),
  z.boolean(),
  z.record(z.string(), z.union([z.number(), z.boolean()])),
]);
export type ScoreValue = z.infer<typeof scoreValue>;

export const numberStats = z.object({
  kind: z.literal('number'),
  count: z.number().int().nonnegative(),
  mean: z.number(),
  stddev: z.number(),
});
export const booleanStats = z.object({
  kind: z.literal('boolean'),
  count: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  passRate: z.number(),
});
export const scoreStats = z.discriminatedUnion('kind', [numberStats, booleanStats]);
export type ScoreStats = z.infer<typeof scoreStats>;

/** Per scorer: stats of its values, or per key for object-valued scorers. */
export const scorerSummary = z.union([
  scoreStats,
  z.object({ kind: z.literal('object'), keys: z.record(z.string(), scoreStats) }),
]);
export type ScorerSummary = z.infer<typeof scorerSummary>;

/** The output of an {@link EVALUATE_OP} call. */
export const evaluationSummary = z.object({
  evaluation: z.string(),
  model: z.string(),
  rows: z.number().int().nonnegative(),
  trials: z.number().int().positive(),
  completed: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  scores: z.record(z.string(), scorerSummary),
  latencyMs: z.object({ p50: z.number(), p95: z.number() }),
  usage: z.record(z.string(), modelUsage).optional(),
  /** With trials > 1: per scorer, the mean over rows of the variance across trials. */
  rowVariance: z.record(z.string(), z.number()).optional(),
});
export type EvaluationSummary = z.infer<typeof evaluationSummary>;

/** The output of a {@link PREDICT_AND_SCORE_OP} call (and one checkpoint line). */
export const evaluationRowResult = z.object({
  rowIndex: z.number().int().nonnegative(),
  rowDigest: digest.optional(),
  trial: z.number().int().nonnegative(),
  output: z.unknown(),
  scores: z.record(z.string(), scoreValue),
  /** Set when the model or a scorer failed; `scores` then holds what did succeed. */
  error: exceptionInfo.optional(),
  latencyMs: z.number().nonnegative(),
});
export type EvaluationRowResult = z.infer<typeof evaluationRowResult>;
