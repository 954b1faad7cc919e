import { z } from 'zod';
import { call } from './calls.js';
import { callId, projectName } from './names.js';

/**
 * Two traces of one project to compare step by step (for example a replay
 * and its original, a fork and its original, or two runs of one agent).
 */
export const traceDiffQuery = z.strictObject({
  project: projectName,
  /** The left trace's id (its root call id). */
  left: callId,
  right: callId,
  /** Most value differences listed per step, for inputs and for outputs each. */
  limit: z.number().int().min(1).max(200).default(20),
});
export type TraceDiffQuery = z.input<typeof traceDiffQuery>;

const valueDifference = z.object({
  path: z.string(),
  kind: z.enum(['changed', 'added', 'removed']),
  left: z.unknown().optional(),
  right: z.unknown().optional(),
});

/** One trace of a comparison: its root. */
const diffSide = z.object({
  traceId: callId,
  opName: z.string(),
  startedAt: z.number(),
  calls: z.number().int().nonnegative(),
  status: z.string(),
  attributes: z.record(z.string(), z.unknown()),
});

/**
 * Two traces aligned by step path (op path and position among same-op
 * siblings), in depth-first start order. `firstDivergence` is the index in
 * `steps` of the first step where a difference starts (`origin`): a step on
 * one side only, different inputs, or a different result no child explains.
 */
export const traceDiffResponse = z.object({
  left: diffSide,
  right: diffSide,
  steps: z.array(
    z.object({
      path: z.string(),
      left: callId.nullable(),
      right: callId.nullable(),
      depth: z.number().int().nonnegative(),
      status: z.enum(['same', 'changed', 'left-only', 'right-only']),
      origin: z.boolean(),
      inputs: z.array(valueDifference),
      output: z.array(valueDifference),
    }),
  ),
  firstDivergence: z.number().int().nonnegative().nullable(),
});
export type TraceDiffResponse = z.infer<typeof traceDiffResponse>;

/** The most calls one `routes.traceCalls` answer holds (see {@link traceCallsResponse}). */
export const TRACE_CALLS_LIMIT = 100_000;

/**
 * Every call of one trace whose start arrived, in start order (ties by id):
 * what the trace view draws its tree and waterfall from. The calls are light:
 * `inputs` is `{}` and `output` is `null` whatever they hold (read a call's
 * values with `routes.call`), and they carry no `feedback`; every other field
 * is as `routes.call` gives it. At most {@link TRACE_CALLS_LIMIT} calls, the
 * first in start order; `truncated` says the trace holds more (an
 * evaluation's trace holds a call per row and score: millions, past what
 * one answer or a browser's tree can hold).
 */
export const traceCallsResponse = z.object({ calls: z.array(call), truncated: z.boolean() });
export type TraceCallsResponse = z.infer<typeof traceCallsResponse>;
