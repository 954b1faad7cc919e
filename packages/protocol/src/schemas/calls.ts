import { z } from 'zod';
import type { ModelUsage } from '../pricing/index.js';
import { callId, projectName } from './names.js';
import { anyValue, timestampMs, valueRecord } from './common.js';
import { feedback, feedbackItem } from './feedback.js';
import { sessionId } from './sessions.js';
import { valueItem } from './values.js';

export interface ExceptionInfo {
  name: string;
  message: string;
  stack?: string | undefined;
  cause?: ExceptionInfo | undefined;
  /** HTTP status of an API error (the thrown value's `status` or `statusCode`). */
  statusCode?: number | undefined;
  /** The error's own kind as its API names it (`type`, e.g. `invalid_request_error`). */
  type?: string | undefined;
  /** The error's `code` (e.g. `rate_limit_exceeded`, `ECONNRESET`). */
  code?: string | undefined;
}

/** An exception as recorded: name, message, stack and its `cause` chain. */
export const exceptionInfo: z.ZodType<ExceptionInfo> = z.object({
  name: z.string().max(1_000),
  message: z.string(),
  stack: z.string().optional(),
  statusCode: z.number().int().optional(),
  type: z.string().max(1_000).optional(),
  code: z.string().max(1_000).optional(),
  get cause() {
    return exceptionInfo.optional();
  },
});

/** {@link ModelUsage} as a schema (the type itself is zod-free, in pricing/). */
export const modelUsage = z.object({
  requests: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
  cachedInputTokens: z.number().nonnegative().optional(),
  cacheWriteTokens: z.number().nonnegative().optional(),
  reasoningTokens: z.number().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
}) satisfies z.ZodType<ModelUsage>;
export type { ModelUsage };

export const callStatus = z.enum(['running', 'success', 'error']);
export type CallStatus = z.infer<typeof callStatus>;

/** Summary of a finished call. Unknown keys are kept, so SDKs may add their own. */
export const callSummary = z.looseObject({
  latencyMs: z.number().nonnegative().optional(),
  status: callStatus.optional(),
  /** Per model name: this call's usage plus its descendants'. */
  usage: z.record(z.string(), modelUsage).optional(),
  /** US dollars of this call and its descendants: the sum of the priced entries of `usage`. */
  costUsd: z.number().nonnegative().optional(),
  /** For a streamed call: milliseconds from the start to the first chunk with content. */
  timeToFirstTokenMs: z.number().nonnegative().optional(),
  /** How many direct children ended in each status. */
  childCounts: z.object({ success: z.number().int(), error: z.number().int() }).partial().optional(),
});
export type CallSummary = z.infer<typeof callSummary>;

const startFields = {
  id: callId,
  traceId: callId,
  parentId: callId.nullable(),
  /** A plain op name or an op ref URI. */
  opName: z.string().min(1).max(2_048),
  displayName: z.string().max(1_024).optional(),
  startedAt: timestampMs,
  inputs: valueRecord,
  attributes: valueRecord.optional(),
  /** The session (conversation) this call belongs to; calls of one session are listed as its turns. */
  sessionId: sessionId.optional(),
};

const endFields = {
  id: callId,
  endedAt: timestampMs,
  output: anyValue.optional(),
  exception: exceptionInfo.optional(),
  summary: callSummary.optional(),
};

/** The start of a call: who, where in the trace, when, with which inputs. */
export const callStart = z.object({ type: z.literal('start'), ...startFields });
/** The end of a call: output or exception and summary. May arrive before its start. */
export const callEnd = z.object({ type: z.literal('end'), ...endFields });
/** A call whose start and end travel together (it finished before its start was sent). */
export const callComplete = z.object({ type: z.literal('complete'), ...startFields, ...endFields });

export const callItem = z.discriminatedUnion('type', [callStart, callEnd, callComplete]);
export type CallStart = z.infer<typeof callStart>;
export type CallEnd = z.infer<typeof callEnd>;
export type CallComplete = z.infer<typeof callComplete>;
export type CallItem = z.infer<typeof callItem>;

/**
 * What a call batch may carry: call records, feedback on calls (which may
 * arrive before its call) and deduplicated values the call records refer to.
 */
export const batchItem = z.discriminatedUnion('type', [
  callStart,
  callEnd,
  callComplete,
  feedbackItem,
  valueItem,
]);
export type BatchItem = z.infer<typeof batchItem>;

/** Largest number of items one batch may carry. */
export const MAX_BATCH_ITEMS = 10_000;

/**
 * A batch of call records for one project. Ingest is an idempotent upsert by
 * call id: a start and an end may arrive in either order, twice, or together.
 */
export const callBatch = z.object({
  project: projectName,
  items: z.array(batchItem).min(1).max(MAX_BATCH_ITEMS),
});
export type CallBatch = z.infer<typeof callBatch>;
/**
 * `missingValues`: digests this batch refers to (from call records or value
 * items) that the server does not store; the client sends those values again.
 * Absent when none are missing.
 */
export const callBatchResponse = z.object({
  accepted: z.number().int().nonnegative(),
  missingValues: z.array(z.string()).optional(),
});
export type CallBatchResponse = z.infer<typeof callBatchResponse>;

/** A call as stored and returned by the read API. */
export const call = z.object({
  project: projectName,
  id: callId,
  traceId: callId,
  parentId: callId.nullable(),
  opName: z.string(),
  displayName: z.string().nullable(),
  startedAt: timestampMs,
  endedAt: timestampMs.nullable(),
  status: callStatus,
  inputs: valueRecord,
  output: anyValue,
  exception: exceptionInfo.nullable(),
  summary: callSummary.nullable(),
  attributes: valueRecord,
  /** The session this call belongs to (`null` or absent when none). */
  sessionId: z.string().nullable().optional(),
  /** Feedback given on this call, oldest first (servers before feedback leave it out). */
  feedback: z.array(feedback).optional(),
  /**
   * In results of a query with `text`: the best matching passage of the
   * display name, inputs or output, split into parts; `match` parts are the
   * words the search found (render them highlighted).
   */
  snippet: z.array(z.object({ text: z.string(), match: z.boolean() })).optional(),
});
export type Call = z.infer<typeof call>;
