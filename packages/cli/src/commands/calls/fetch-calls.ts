import { type Call, type CallQuery, callQueryResponse, routes } from '@weft/protocol';
import { ServerResponseError } from '../../errors/index.js';
import { postJson, type ServerTarget } from '../../http/index.js';

/** The server's largest page. */
const MAX_PAGE = 1_000;

/** Calls found, and whether the server holds more beyond `limit`. */
export interface FetchedCalls {
  calls: Call[];
  more: boolean;
}

/**
 * Runs a call query page by page (following `nextCursor`) until `limit`
 * calls are in hand or the server has no more.
 */
export async function fetchCalls(
  target: ServerTarget,
  query: Omit<CallQuery, 'limit' | 'cursor'>,
  limit: number,
): Promise<FetchedCalls> {
  const calls: Call[] = [];
  let cursor: string | undefined;
  for (;;) {
    const pageSize = Math.min(MAX_PAGE, limit - calls.length);
    const body: CallQuery = { ...query, limit: pageSize, ...(cursor ? { cursor } : {}) };
    const parsed = callQueryResponse.safeParse(await postJson(target, routes.callQuery(), body));
    if (!parsed.success) {
      throw new ServerResponseError({
        statusCode: 200,
        code: 'WEFT_BAD_RESPONSE',
        message: `The server at ${target.url} answered a call query with an unexpected body (${parsed.error.issues[0]?.message ?? 'invalid'}); is it a Weft server of a matching version?`,
      });
    }
    calls.push(...parsed.data.calls);
    const next = parsed.data.nextCursor;
    if (calls.length >= limit) return { calls: calls.slice(0, limit), more: next !== null };
    if (next === null) return { calls, more: false };
    cursor = next;
  }
}
