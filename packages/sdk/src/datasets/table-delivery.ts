import { tableDigest } from '@weft/protocol';
import { batchesOf } from '../batching/index.js';
import type { ApiClient, DeliveryRecord, RecordDelivery } from '../transport/index.js';
import type { HashedRows } from './row-digests.js';
import {
  chunkLimits,
  ROW_ENVELOPE_BYTES,
  type TableUpload,
  type UploadLimits,
  uploadTable,
} from './upload-table.js';

/** What a table upload needs from the client: its project, its one API client and its delivery path. */
export interface TableDestination {
  readonly project: string;
  readonly api: Pick<ApiClient, 'getJson' | 'postJson'>;
  readonly records: Pick<RecordDelivery, 'keep' | 'retrying'>;
}

/** An upload, or (`spilled`) the table kept in the outbox for replay because the server could not take it. */
export interface TableDelivery extends TableUpload {
  spilled: boolean;
}

/**
 * Stores a table: uploads only the rows the server lacks (`uploadTable`),
 * retried by the client's retry policy; when the server cannot take it now
 * (the policy gives up on unreachable, 408/429/5xx) the table goes to the outbox as delivery records — its rows in
 * chunks, then the table by its row digests, in that order — and is replayed
 * with the calls. Its digest is computed here either way, so the ref a call
 * records resolves once the outbox is replayed. A 4xx is thrown (the table is
 * invalid; sending it again cannot succeed).
 */
export async function deliverTable(
  destination: TableDestination,
  rows: readonly unknown[],
  hashed: HashedRows,
  limits: UploadLimits,
): Promise<TableDelivery> {
  const { project, api, records } = destination;
  // Each attempt asks again which rows the server lacks, so a retry sends only what is still missing.
  // Rows and requests of failed attempts count too: what they stored is why a retry sends less.
  let uploadedRows = 0;
  let requests = 0;
  const upload = await records.retrying(() =>
    uploadTable(api, project, rows, hashed, limits, (progress) => {
      uploadedRows += progress.rows;
      requests += progress.requests;
    }),
  );
  if ('done' in upload) return { digest: upload.done.digest, uploadedRows, requests, spilled: false };
  const kept = tableRecords(project, rows, hashed, limits);
  const outcome = await records.keep(
    kept.records,
    `the server could not take table ${kept.digest} (${upload.kept})`,
  );
  if (outcome.status === 'failed') throw outcome.error;
  return { digest: kept.digest, uploadedRows, requests, spilled: true };
}

/** Every distinct row in chunks under `limits`, then the table itself. */
function tableRecords(project: string, rows: readonly unknown[], hashed: HashedRows, limits: UploadLimits) {
  const { digests, sizes } = hashed;
  const digest = tableDigest(digests);
  const records: DeliveryRecord[] = [];
  const seen = new Set<string>();
  const distinct: { digest: string; value: unknown; bytes: number }[] = [];
  for (const [i, d] of digests.entries()) {
    if (seen.has(d)) continue;
    seen.add(d);
    distinct.push({ digest: d, value: rows[i], bytes: (sizes[i] ?? 0) + ROW_ENVELOPE_BYTES });
  }
  for (const chunk of batchesOf(distinct, chunkLimits(limits), (row) => row.bytes)) {
    const body = { project, rows: chunk.map(({ digest: d, value }) => ({ digest: d, value })) };
    records.push({ kind: 'table-rows', body, label: `rows of table ${digest}` });
  }
  records.push({ kind: 'table', body: { project, rowDigests: digests, digest }, label: `table ${digest}` });
  return { digest, records };
}
