import { z } from 'zod';
import { callId, projectName } from './names.js';
import { call, callStatus } from './calls.js';
import { timestampMs } from './common.js';
import { feedbackValue } from './feedback.js';
import { sessionId } from './sessions.js';

/** An attribute value a filter can compare with: equality on strings, numbers and booleans. */
export const attributeFilterValue = z.union([z.string().max(1_000), z.number().finite(), z.boolean()]);

/**
 * What a call list is ordered by: start time, latency, or op name (one op's
 * calls by start time); ties are broken by call id, in the same direction.
 */
export const callSortField = z.enum(['startedAt', 'latencyMs', 'opName']);
export type CallSortField = z.infer<typeof callSortField>;

/** How a read gives inputs, output and attributes: with deduplicated values expanded, or their digests left as markers (`{ _weft: 'value', digest }`, read with `valueRead`). */
export const callValuesForm = z.enum(['resolved', 'digests']);
export type CallValuesForm = z.infer<typeof callValuesForm>;

/**
 * A page request over one project's calls. Calls whose start has not arrived
 * yet are not listed. Paging is by opaque cursor: pass `nextCursor` back with
 * the same filters and sort to get the next page, with no gap or duplicate.
 *
 * Strict: an unknown key (a misspelled filter) is refused rather than
 * ignored, since ignoring a filter silently answers with every call.
 */
export const callQuery = z.strictObject({
  project: projectName,
  traceId: callId.optional(),
  /** A call id for its children; `null` for root calls only. */
  parentId: callId.nullable().optional(),
  /** Plain op name (matches op refs of that name too), or several. */
  opName: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(100)]).optional(),
  status: z.union([callStatus, z.array(callStatus).min(1)]).optional(),
  /** Inclusive lower bound on `startedAt`. */
  startedAfter: timestampMs.optional(),
  /** Exclusive upper bound on `startedAt`. */
  startedBefore: timestampMs.optional(),
  /**
   * Full-text search over display names, op names, inputs and outputs: every
   * word must occur as a whole word, case and diacritics folded (`cafe` finds
   * `Café`). Quotes,
   * `*`, `:`, `-`, `AND`/`OR`/`NOT` are plain text, never query syntax.
   * Results carry a highlighted `snippet`.
   */
  text: z.string().min(1).max(200).optional(),
  /** Calls of this session only. */
  sessionId: sessionId.optional(),
  /**
   * Attribute equality, every pair ANDed: `{ env: 'prod', 'user.tier': 2 }`.
   * An attribute that is an array matches when one of its elements equals the value.
   */
  attributes: z
    .record(z.string().min(1).max(256), attributeFilterValue)
    .refine((r) => Object.keys(r).length <= 20, 'at most 20 attributes')
    .optional(),
  /** Shorthand for `attributes: { 'user.id': userId }`. */
  userId: z.string().min(1).max(1_000).optional(),
  /** Calls whose `tags` attribute (an array of strings) contains this tag, or every one of these tags. */
  tag: z.union([z.string().min(1).max(256), z.array(z.string().min(1).max(256)).min(1).max(20)]).optional(),
  /**
   * Calls with feedback: `{}` any feedback, `{ name }` feedback of that name,
   * `{ name, value }` that name with that value.
   */
  feedback: z
    .object({ name: z.string().min(1).max(256).optional(), value: feedbackValue.optional() })
    .optional(),
  sort: z
    .strictObject({
      field: callSortField.default('startedAt'),
      direction: z.enum(['asc', 'desc']).default('desc'),
    })
    .default({ field: 'startedAt', direction: 'desc' }),
  limit: z.number().int().min(1).max(1_000).default(100),
  cursor: z.string().max(1_000).optional(),
  /**
   * `digests`: deduplicated values are left as their markers (a reader that
   * caches values by digest, such as a replay, reads each once with
   * `valueRead`). @default 'resolved'
   */
  values: callValuesForm.optional(),
});
export type CallQuery = z.input<typeof callQuery>;
export type CallQueryParsed = z.output<typeof callQuery>;

export const callQueryResponse = z.object({
  calls: z.array(call),
  nextCursor: z.string().nullable(),
});
export type CallQueryResponse = z.infer<typeof callQueryResponse>;
