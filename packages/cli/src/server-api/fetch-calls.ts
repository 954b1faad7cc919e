import { type Call, type CallQuery, callQueryResponse, routes } from '@weft/protocol';
import { postJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** The server's largest page. */
const MAX_PAGE = 1_000;

/** Calls found, and whether the server holds more beyond `limit`. */
export interface FetchedCalls {
  calls: Call[];
  more: boolean;
  /** The cursor that continues after the last call returned (`null` when none match beyond). */
  nextCursor: string | null;
}

/**
 * Runs a call query page by page (following `nextCursor`) until `limit`
 * calls are in hand or the server has no more.
 */
export async function fetchCalls(
  target: ServerTarget,
  query: Omit<CallQuery, 'limit'>,
  limit: number,
): Promise<FetchedCalls> {
  const calls: Call[] = [];
  let cursor = query.cursor;
  for (;;) {
    const pageSize = Math.min(MAX_PAGE, limit - calls.length);
    const body: CallQuery = { ...query, limit: pageSize, ...(cursor ? { cursor } : {}) };
    const page = parseAnswer(
      callQueryResponse,
      await postJson(target, routes.callQuery(), body),
      target,
      'a call query',
    );
    calls.push(...page.calls);
    const next = page.nextCursor;
    if (calls.length >= limit || next === null) {
      return { calls, more: next !== null, nextCursor: next };
    }
    cursor = next;
  }
}

/** Every call of a trace, in start order (paged through; a trace of 25,000 calls is 25 requests). */
export async function fetchTrace(target: ServerTarget, project: string, traceId: string): Promise<Call[]> {
  const { calls } = await fetchCalls(
    target,
    { project, traceId, sort: { field: 'startedAt', direction: 'asc' } },
    Number.MAX_SAFE_INTEGER,
  );
  return calls;
}
