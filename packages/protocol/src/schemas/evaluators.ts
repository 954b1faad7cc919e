import { z } from 'zod';
import { callId, projectName } from './names.js';
import { monitorRuleName } from './alerts.js';
import { call } from './calls.js';
import { timestampMs } from './common.js';
import { feedbackValue } from './feedback.js';
import { callFilter } from './metrics.js';

/** A score an LLM judge gives: its name and what its value may be. */
export const judgeScore = z.strictObject({
  name: z.string().min(1).max(256),
  type: z.enum(['number', 'boolean', 'label']),
  /** Bounds of a number score. */
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  /** The labels a label score may take. */
  labels: z.array(z.string().min(1).max(256)).min(1).max(50).optional(),
  description: z.string().max(1_000).optional(),
});
export type JudgeScore = z.input<typeof judgeScore>;

/** Scores run in the user's own process by `weft.monitor`; `digest` names the scorer's code (a new one is a new version). */
export const codeScorer = z.strictObject({
  type: z.literal('code'),
  digest: z.string().max(128).optional(),
});

/**
 * Scores run by the server with an LLM judge (endpoint and key from the
 * server's configuration, never from the rule): `prompt` is a template over
 * `{{inputs}}`, `{{output}}`, `{{expected}}` (a `expected` attribute or
 * input) and any `{{inputs.<name>}}` or `{{attributes.<name>}}`; the judge
 * must answer a JSON object with one value per score.
 */
export const llmScorer = z.strictObject({
  type: z.literal('llm'),
  model: z.string().min(1).max(256),
  prompt: z.string().min(1).max(20_000),
  scores: z.array(judgeScore).min(1).max(10),
  /** US dollars the rule may spend per UTC day; judging pauses until the next day past it. */
  dailyCostCapUsd: z.number().nonnegative().max(10_000).default(5),
  /** Judge requests of this rule at once. */
  concurrency: z.number().int().min(1).max(16).default(2),
  /** Judge requests of this rule per minute. */
  requestsPerMinute: z.number().int().min(1).max(10_000).default(60),
  maxTokens: z.number().int().min(16).max(8_192).default(512),
  temperature: z.number().min(0).max(2).default(0),
});

/**
 * An online evaluator: which calls (the calls query's filters, full-text
 * search aside), what share of traces (`sampleRate`, decided by trace id, so
 * a trace is scored whole or not at all), and the scorer. Its results are
 * feedback on each call with `source: 'evaluator:<name>'` and the rule's
 * version, which grows whenever the filter, rate or scorer changes.
 */
export const evaluatorRule = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  description: z.string().max(2_000).optional(),
  filter: callFilter
    .refine((filter) => filter.text === undefined, 'full-text search cannot select calls for an evaluator')
    .optional(),
  sampleRate: z.number().min(0).max(1).default(1),
  scorer: z.discriminatedUnion('type', [codeScorer, llmScorer]),
  enabled: z.boolean().default(true),
});
export type EvaluatorRule = z.input<typeof evaluatorRule>;
export type EvaluatorRuleParsed = z.output<typeof evaluatorRule>;

/** A backfill: the rule's calls started in `[from, to)`, scored oldest first. */
export const evaluatorBackfill = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  from: timestampMs,
  to: timestampMs,
});

/** A rule with what it has done. */
export const evaluatorStatus = z.object({
  rule: evaluatorRule,
  version: z.number().int().positive(),
  /** Calls scored (results stored) and calls whose scoring failed, by this version. */
  scored: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** What the LLM judge spent today (UTC) and in all. */
  costTodayUsd: z.number().nonnegative(),
  costUsd: z.number().nonnegative(),
  /** Why judging is paused (cost cap, rate limit, no judge configured), if it is. */
  paused: z.string().nullable(),
  lastRunAt: timestampMs.nullable(),
  backfill: z
    .object({
      from: timestampMs,
      to: timestampMs,
      /** Share of the range walked, 0…1. */
      progress: z.number().min(0).max(1),
      done: z.boolean(),
    })
    .nullable(),
});
export type EvaluatorStatus = z.infer<typeof evaluatorStatus>;

export const evaluatorListResponse = z.object({ evaluators: z.array(evaluatorStatus) });

/** Body of `routes.evaluatorPull`: the next calls for a code evaluator to score. */
export const evaluatorPull = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  limit: z.number().int().min(1).max(500).default(50),
});

/**
 * The next calls to score (after the rule's stored cursor, sampled and
 * filtered), and the cursor to hand back with their results; `version` is
 * the rule's, for the feedback.
 */
export const evaluatorPullResponse = z.object({
  calls: z.array(call),
  cursor: z.string(),
  version: z.number().int().positive(),
  /** True when nothing more is waiting now (pull again later). */
  idle: z.boolean(),
});
export type EvaluatorPullResponse = z.infer<typeof evaluatorPullResponse>;

/** One call's scores, or why it could not be scored (a scorer that threw). */
export const evaluatorResult = z.strictObject({
  callId,
  scores: z.record(z.string().min(1).max(256), feedbackValue).optional(),
  comment: z.string().max(10_000).optional(),
  error: z.string().max(10_000).optional(),
});
export type EvaluatorResult = z.infer<typeof evaluatorResult>;

/**
 * Body of `routes.evaluatorResults`: the results of the calls a pull gave,
 * stored idempotently (each score's feedback id is derived from rule,
 * version, call and score), then the rule's cursor moves to `cursor`.
 */
export const evaluatorResults = z.strictObject({
  project: projectName,
  name: monitorRuleName,
  version: z.number().int().positive(),
  cursor: z.string().max(2_000),
  results: z.array(evaluatorResult).max(500),
});
export type EvaluatorResults = z.input<typeof evaluatorResults>;

/** A result or error of an evaluator, as its page lists them. */
export const evaluatorActivity = z.object({
  results: z.array(
    z.object({
      at: timestampMs,
      callId,
      version: z.number().int(),
      scores: z.record(z.string(), feedbackValue),
      costUsd: z.number().optional(),
    }),
  ),
  errors: z.array(z.object({ at: timestampMs, callId: callId.nullable(), message: z.string() })),
});
export type EvaluatorActivity = z.infer<typeof evaluatorActivity>;
