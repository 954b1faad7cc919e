import { routes, tableCreateResponse, tableDigest, tableRowsResponse } from '@weft/protocol';
import type { ApiClient } from '../transport/api-client.js';

/** What an upload did. */
export interface TableUpload {
  digest: string;
  /** Rows sent to the server (0 when it already had the table). */
  uploadedRows: number;
  requests: number;
}

/**
 * Uploads a table in chunks: `tableCreate` of the first chunk, then
 * `tableAppend` of each next chunk onto the previous prefix. Every prefix
 * ending on a chunk boundary is itself a content-addressed table, and prefix
 * existence is monotonic (a prefix is only ever made by appending to the one
 * before), so a binary search over chunk boundaries finds the longest prefix
 * the server already has: re-publishing uploads nothing, and a dataset that
 * only grew uploads only its new chunks. Each request carries the digest the
 * client computed; the server recomputes it and rejects a mismatch.
 */
export async function uploadTable(
  api: Pick<ApiClient, 'getJson' | 'postJson'>,
  project: string,
  rows: readonly unknown[],
  digests: readonly string[],
  chunkRows: number,
): Promise<TableUpload> {
  const boundaries: number[] = [];
  for (let end = chunkRows; end < rows.length; end += chunkRows) boundaries.push(end);
  boundaries.push(rows.length);
  const prefixDigest = (end: number) => tableDigest(digests.slice(0, end));
  let requests = 0;
  const exists = async (end: number): Promise<boolean> => {
    requests++;
    try {
      await api.getJson(
        `${routes.tableRows(project, prefixDigest(end))}?offset=0&limit=1`,
        tableRowsResponse,
      );
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'WEFT_NOT_FOUND') return false;
      throw error;
    }
  };

  // Longest existing prefix: boundaries[lo - 1] exists, boundaries[hi] does not.
  let lo = 0;
  let hi = boundaries.length;
  if (await exists(boundaries[hi - 1] as number)) lo = hi;
  else hi -= 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (await exists(boundaries[mid] as number)) lo = mid + 1;
    else hi = mid;
  }
  let done = lo === 0 ? 0 : (boundaries[lo - 1] as number);
  let uploadedRows = 0;
  for (let i = lo; i < boundaries.length; i++) {
    const end = boundaries[i] as number;
    const chunk = rows.slice(done, end);
    const digest = prefixDigest(end);
    requests++;
    if (done === 0)
      await api.postJson(routes.tableCreate(), { project, rows: chunk, digest }, tableCreateResponse);
    else {
      await api.postJson(
        routes.tableAppend(),
        { project, base: prefixDigest(done), rows: chunk, digest },
        tableCreateResponse,
      );
    }
    uploadedRows += chunk.length;
    done = end;
  }
  return { digest: prefixDigest(rows.length), uploadedRows, requests };
}
