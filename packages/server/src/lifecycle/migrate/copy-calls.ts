import { type Call, type CallItem, callQuery, type FeedbackItem } from '@weft/protocol';
import { encodeCursor, type Storage } from '../../storage/index.js';
import { copyContent, refsOf } from './copy-content.js';

/** Calls per page read from the source and per batch written to the target (the query limit's maximum). */
export const MIGRATE_PAGE_CALLS = 1_000;

/** The order calls are copied in, as a cursor names it (`Storage` "Sort keys and cursors"). */
const SORT = 'startedAt:asc';

/** What one page of calls wrote to the target. */
export interface CallsPageCopied {
  calls: number;
  feedback: number;
  values: number;
  files: number;
  /** After the last call copied (the cursor given when the page was empty): where the next run starts. */
  cursor: string | undefined;
  /** Whether the source has calls after this page. */
  more: boolean;
}

/**
 * Copies the page of calls after `cursor` (oldest first, keyset paging, so
 * calls the source takes in meanwhile come in later pages): first what they
 * refer to (values, files), then the calls, then their feedback, so the
 * target never holds a call whose values are missing. Each call is written
 * as the record it is now (`complete`, or `start` while it runs); calls
 * whose start never arrived are not listed by the source and are not copied.
 */
export async function copyCallsPage(
  source: Storage,
  target: Storage,
  project: string,
  cursor: string | undefined,
): Promise<CallsPageCopied> {
  const page = await source.queryCalls(
    callQuery.parse({
      project,
      sort: { field: 'startedAt', direction: 'asc' },
      limit: MIGRATE_PAGE_CALLS,
      ...(cursor === undefined ? {} : { cursor }),
    }),
  );
  const last = page.calls.at(-1);
  const content = await copyContent(
    source,
    target,
    project,
    refsOf(...page.calls.flatMap((call) => [call.inputs, call.attributes, call.output])),
  );
  if (page.calls.length > 0) await target.ingestCalls(project, page.calls.map(callItemOf));
  const feedback = page.calls.flatMap((call) => (call.feedback ?? []).map((f) => feedbackItemOf(call.id, f)));
  const stored = feedback.length === 0 ? 0 : (await target.putFeedback(project, feedback)).stored;
  return {
    calls: page.calls.length,
    feedback: stored,
    ...content,
    cursor: last === undefined ? cursor : encodeCursor(SORT, { key: last.startedAt, id: last.id }),
    more: page.nextCursor !== null && page.nextCursor !== undefined,
  };
}

/** The record that stores `call` as it is: a `complete` record once it ended, else its `start`. */
export function callItemOf(call: Call): CallItem {
  const start = {
    id: call.id,
    traceId: call.traceId,
    parentId: call.parentId,
    opName: call.opName,
    ...(call.displayName === null ? {} : { displayName: call.displayName }),
    startedAt: call.startedAt,
    inputs: call.inputs,
    attributes: call.attributes,
    ...(call.sessionId === null || call.sessionId === undefined ? {} : { sessionId: call.sessionId }),
  };
  if (call.endedAt === null) return { type: 'start', ...start };
  return {
    type: 'complete',
    ...start,
    endedAt: call.endedAt,
    ...(call.output === undefined ? {} : { output: call.output }),
    ...(call.exception === null ? {} : { exception: call.exception }),
    ...(call.summary === null ? {} : { summary: call.summary }),
  };
}

function feedbackItemOf(callId: string, feedback: NonNullable<Call['feedback']>[number]): FeedbackItem {
  return { ...feedback, type: 'feedback', callId };
}
