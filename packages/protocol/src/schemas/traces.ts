import { z } from 'zod';
import { call, callStatus } from './calls.js';
import { timestampMs } from './common.js';
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

/** An index into a {@link traceColumnsResponse}'s `strings` or `values`. */
const tableIndex = z.number().int().nonnegative();

/**
 * The answer of `routes.traceCalls` with `?layout=columns`: the same light
 * calls as {@link traceCallsResponse}, in the same order, held as one array
 * per field (entry i of each is call i) so that a trace of 25,000 calls is a
 * few MB, not 11: names, statuses and session ids are indexes into
 * `strings`, attributes, summaries and exceptions indexes into `values`
 * (each distinct value once; a trace's calls share most of them). `parents`
 * holds a parent's index in `ids` when the parent is in the answer, its id
 * when it is not, and `null` for a root. Every call has `project` and
 * `traceId` of the answer, `inputs` `{}` and `output` `null`.
 * `callsOfTraceColumns` (in `@weft/protocol/trace`) turns it back into calls.
 */
export const traceColumnsResponse = z.object({
  project: projectName,
  traceId: callId,
  truncated: z.boolean(),
  ids: z.array(callId),
  parents: z.array(z.union([tableIndex, callId, z.null()])),
  startedAt: z.array(timestampMs),
  endedAt: z.array(timestampMs.nullable()),
  status: z.array(callStatus),
  opName: z.array(tableIndex),
  displayName: z.array(tableIndex.nullable()),
  sessionId: z.array(tableIndex.nullable()),
  attributes: z.array(tableIndex),
  summary: z.array(tableIndex.nullable()),
  exception: z.array(tableIndex.nullable()),
  strings: z.array(z.string()),
  values: z.array(z.unknown()),
});
export type TraceColumnsResponse = z.infer<typeof traceColumnsResponse>;

/** `?layout=` of `routes.traceCalls`: `calls` (default, {@link traceCallsResponse}) or `columns` ({@link traceColumnsResponse}). */
export const traceCallsQuery = z.object({ layout: z.enum(['calls', 'columns']).default('calls') });
export type TraceCallsQuery = z.input<typeof traceCallsQuery>;
