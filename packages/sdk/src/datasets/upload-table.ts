import {
  hasCode,
  routes,
  tableCreateResponse,
  tableDigest,
  tableRowsKnownResponse,
  tableRowsPutResponse,
  tableRowsResponse,
} from '@weft/protocol';
import { type BatchLimits, batchesOf } from '../batching/index.js';
import type { ApiClient } from '../transport/index.js';
import type { HashedRows } from './row-digests.js';

/** Row digests asked about per `rows/known` request (≈ 0.9 MB of JSON). */
const KNOWN_DIGESTS_PER_REQUEST = 20_000;
/** JSON around one row in a `rows` upload: `{"digest":"<43 chars>","value":…},` is 66 bytes; rounded up. */
export const ROW_ENVELOPE_BYTES = 70;

/** How to cut the missing rows into upload requests. */
export interface UploadLimits {
  /** Most rows per upload request. */
  chunkRows: number;
  /** Most bytes of rows (their JSON and digest) per upload request; a single larger row goes alone. */
  chunkBytes: number;
}

/** `limits` as the bounds of the one batching rule (`batchesOf`). */
export function chunkLimits(limits: UploadLimits): BatchLimits {
  return { maxItems: limits.chunkRows, maxBytes: limits.chunkBytes };
}

/** What an upload did. */
export interface TableUpload {
  digest: string;
  /** Rows whose content was sent (0 when the server had them all). */
  uploadedRows: number;
  /** HTTP requests made. */
  requests: number;
}

/**
 * Uploads a table so that only rows the server lacks travel:
 *
 *   GET rows?limit=1 of the table digest ──200──▶ done, nothing sent
 *        │404
 *        ▼
 *   for each window of distinct row digests:
 *     POST rows/known ─▶ POST rows (missing ones, chunks under `chunkBytes`)
 *        ▼
 *   POST by-digests { rowDigests } (no row contents)
 *
 * Rows are stored per project by digest and never deleted, so a digest the
 * server called known stays known until the table is made. Changing one row
 * of a published dataset sends that one row; the request bodies stay far
 * below the server's body limit however large the dataset (the final
 * `by-digests` carries ≈ 46 bytes per row). The server recomputes every
 * digest and rejects a mismatch.
 */
export async function uploadTable(
  api: Pick<ApiClient, 'getJson' | 'postJson'>,
  project: string,
  rows: readonly unknown[],
  hashed: HashedRows,
  limits: UploadLimits,
  /** Told after each request that succeeded (and how many rows it stored), so a caller that retries can count failed attempts' work too. */
  onProgress: (progress: { requests: number; rows: number }) => void = () => {},
): Promise<TableUpload> {
  const { digests, sizes } = hashed;
  const digest = tableDigest(digests);
  let requests = 1;
  const exists = await tableExists(api, project, digest);
  onProgress({ requests: 1, rows: 0 });
  if (exists) return { digest, uploadedRows: 0, requests };

  // First index of each distinct row: a row repeated in the dataset is asked about and sent once.
  const firstIndex = new Map<string, number>();
  for (const [i, d] of digests.entries()) if (!firstIndex.has(d)) firstIndex.set(d, i);
  const distinct = [...firstIndex.keys()];

  let uploadedRows = 0;
  for (let start = 0; start < distinct.length; start += KNOWN_DIGESTS_PER_REQUEST) {
    const window = distinct.slice(start, start + KNOWN_DIGESTS_PER_REQUEST);
    requests++;
    const { known } = await api.postJson(
      routes.tableRowsKnown(),
      { project, digests: window },
      tableRowsKnownResponse,
    );
    onProgress({ requests: 1, rows: 0 });
    const held = new Set(known);
    const missing = window.filter((d) => !held.has(d));
    const rowBytes = (d: string) => (sizes[firstIndex.get(d) as number] ?? 0) + ROW_ENVELOPE_BYTES;
    for (const chunk of batchesOf(missing, chunkLimits(limits), rowBytes)) {
      requests++;
      const body = chunk.map((d) => ({ digest: d, value: rows[firstIndex.get(d) as number] }));
      await api.postJson(routes.tableRowsPut(), { project, rows: body }, tableRowsPutResponse);
      onProgress({ requests: 1, rows: chunk.length });
      uploadedRows += chunk.length;
    }
  }

  requests++;
  await api.postJson(routes.tableByDigests(), { project, rowDigests: digests, digest }, tableCreateResponse);
  onProgress({ requests: 1, rows: 0 });
  return { digest, uploadedRows, requests };
}

/** Whether the server already has the table: a one-row page of it answers 200. */
async function tableExists(
  api: Pick<ApiClient, 'getJson'>,
  project: string,
  digest: string,
): Promise<boolean> {
  try {
    await api.getJson(`${routes.tableRows(project, digest)}?offset=0&limit=1`, tableRowsResponse);
    return true;
  } catch (error) {
    if (hasCode(error, 'WEFT_NOT_FOUND')) return false;
    throw error;
  }
}
