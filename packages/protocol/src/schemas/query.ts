import { z } from 'zod';
import { callId, projectName } from '../refs/names.js';
import { call, callStatus } from './calls.js';
import { timestampMs } from './common.js';

export const callSortField = z.enum(['startedAt', 'latencyMs', 'opName']);
export type CallSortField = z.infer<typeof callSortField>;

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
  /** Case-insensitive substring of the display name (or op name when there is none). */
  text: z.string().min(1).max(200).optional(),
  sort: z
    .strictObject({ field: callSortField.default('startedAt'), direction: z.enum(['asc', 'desc']).default('desc') })
    .default({ field: 'startedAt', direction: 'desc' }),
  limit: z.number().int().min(1).max(1_000).default(100),
  cursor: z.string().max(1_000).optional(),
});
export type CallQuery = z.input<typeof callQuery>;
export type CallQueryParsed = z.output<typeof callQuery>;

export const callQueryResponse = z.object({
  calls: z.array(call),
  nextCursor: z.string().nullable(),
});
export type CallQueryResponse = z.infer<typeof callQueryResponse>;
