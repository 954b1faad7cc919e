import { type Call, type CallExportParamsParsed, callQuery } from '@weft/protocol';
import type { Storage } from '../../storage/index.js';
import { expandCallValues } from '../../values/index.js';
import { yieldToRequests } from '../yield-to-requests.js';

/** Calls per page read for an export: what an export holds in memory at once (with the encoder's row group). */
export const EXPORT_PAGE_CALLS = 500;

/** What an export reads: a project, any calls query's filters and sort, and how values are written. */
export type ExportSource = Pick<CallExportParamsParsed, 'project' | 'query' | 'values'>;

/**
 * The calls of an export, page by page (keyset paging: each call once,
 * whatever is ingested meanwhile), with deduplicated values expanded
 * (`values: 'resolved'`) or left as their `{ _weft: 'value', digest }`
 * markers (`'digests'`). Pulled: the next page is read only when the
 * consumer asks, so a slow reader holds one page, never the export.
 */
export async function* exportPages(storage: Storage, source: ExportSource): AsyncGenerator<Call[]> {
  let cursor: string | undefined;
  do {
    const page = await storage.queryCalls(
      callQuery.parse({ ...source.query, project: source.project, limit: EXPORT_PAGE_CALLS, cursor }),
    );
    const calls = source.values === 'resolved' ? await expandCallValues(storage, page.calls) : page.calls;
    if (calls.length > 0) yield calls;
    cursor = page.nextCursor ?? undefined;
    await yieldToRequests();
  } while (cursor !== undefined);
}
