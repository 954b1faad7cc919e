import { decodeMsgpack } from '@weft/protocol';
import {
  type ApiClient,
  batchBodyPrefix,
  decodeOutboxRecord,
  type DeliveryRecord,
  encodeBatchBody,
  RecordRejectedError,
  RecordTooLargeError,
  rejectionVerdict,
  type SendResult,
  sendDeliveryRecord,
  splitInHalves,
} from '../transport/index.js';
import type { ReplaySend } from './outbox.js';

/** Receives each problem replay hit (a malformed or rejected record); it is reported, then skipped. */
export type ReplayWarning = (message: string, details: Record<string, unknown>) => void;

/**
 * The send function for `Outbox.replay`: sends the records it is handed,
 * grouped by project and in their order. It does not batch again: replay
 * already hands over batches bounded by its `ReplayOptions` (500 records and
 * 1 MB by default, the batcher's bounds), so each run of call records of one
 * project is one request, and each delivery record (object, file, table
 * chunk) one request in its place.
 *
 * Resolves `true` only when every record is handled: acknowledged by the
 * server, or rejected by it as invalid (reported through `onWarning`, then
 * dropped, since sending it again can never succeed), or malformed (reported,
 * dropped). Resolves `false` as soon as the server is unreachable, failing
 * (5xx, 429) or refuses the credentials, so the segment stays for a later
 * replay; records already acknowledged are harmlessly sent again then, because
 * ingest is an idempotent upsert by call id.
 */
export function createReplaySender(
  client: Pick<ApiClient, 'post' | 'postBytes' | 'postCallBatch'>,
  onWarning: ReplayWarning = () => {},
): ReplaySend {
  return async (records) => {
    // Consecutive call items of one project travel as one batch; a delivery record
    // (object, file, table chunk) goes alone, in its place in the order.
    type Run = { project: string; items: Uint8Array[]; delivery?: DeliveryRecord };
    const runs: Run[] = [];
    for (const [position, record] of records.entries()) {
      const decoded = decodeOutboxRecord(record);
      if (typeof decoded === 'string') {
        onWarning(`Skipping a malformed outbox record: ${decoded}`, { position, bytes: record.byteLength });
        continue;
      }
      if (decoded.delivery !== undefined) {
        runs.push({ project: decoded.project, items: [], delivery: decoded.delivery });
        continue;
      }
      const last = runs.at(-1);
      if (last !== undefined && last.delivery === undefined && last.project === decoded.project)
        last.items.push(decoded.itemBytes);
      else runs.push({ project: decoded.project, items: [decoded.itemBytes] });
    }
    for (const run of runs) {
      if (run.delivery !== undefined) {
        if (!(await sendDelivery(client, run.project, run.delivery, onWarning))) return false;
        continue;
      }
      if (!(await sendIsolating(client, batchBodyPrefix(run.project), run.items, onWarning))) return false;
    }
    return true;
  };
}

/** One delivery record; false when the server cannot take it now. A record it rejects as invalid is reported and dropped. */
async function sendDelivery(
  client: Pick<ApiClient, 'post' | 'postBytes'>,
  project: string,
  record: DeliveryRecord,
  onWarning: ReplayWarning,
): Promise<boolean> {
  const result = await sendDeliveryRecord(client, project, record);
  if (result.status === 'sent') return true;
  if (result.status === 'retryable') return false;
  const verdict = rejectionVerdict(result.statusCode, result.index, 1);
  if (verdict.action === 'keep') {
    onWarning(`Outbox replay paused: ${result.error.message}`, { statusCode: result.statusCode });
    return false;
  }
  onWarning(`Outbox replay dropped ${record.label}: the server refused it (${result.error.message})`, {
    code: result.error.code,
    statusCode: result.statusCode,
  });
  return true;
}

/**
 * Sends one batch; when the server rejects an item as invalid, drops exactly
 * that item (by the rule of `rejectionVerdict`) and sends the rest. False
 * when the server cannot take records now.
 */
async function sendIsolating(
  client: Pick<ApiClient, 'postCallBatch'>,
  prefix: Uint8Array,
  items: Uint8Array[],
  onWarning: ReplayWarning,
): Promise<boolean> {
  const work: Uint8Array[][] = [items];
  while (work.length > 0) {
    const batch = work.pop()!;
    const result: SendResult = await client.postCallBatch(encodeBatchBody(prefix, batch));
    if (result.status === 'sent') continue;
    if (result.status === 'retryable') return false;
    const { statusCode, index, error } = result;
    const verdict = rejectionVerdict(statusCode, index, batch.length);
    switch (verdict.action) {
      case 'keep':
        onWarning(`Outbox replay paused: ${error.message}`, { statusCode });
        return false;
      case 'drop': {
        const [bad] = batch.splice(verdict.index, 1);
        report(bad!, error, statusCode, onWarning);
        if (batch.length > 0) work.push(batch);
        break;
      }
      case 'split':
        work.push(...splitInHalves(batch));
        break;
    }
  }
  return true;
}

function report(
  item: Uint8Array,
  cause: Extract<SendResult, { status: 'rejected' }>['error'],
  statusCode: number,
  onWarning: ReplayWarning,
): void {
  const callId = callIdOf(item);
  const error =
    statusCode === 413
      ? new RecordTooLargeError(callId, item.byteLength, cause)
      : new RecordRejectedError(callId, cause);
  onWarning(`Outbox replay dropped a record: ${error.message}`, { callId, code: error.code, statusCode });
}

/** Best effort: the id of an encoded item, for the report; replay never decodes items otherwise. */
function callIdOf(item: Uint8Array): string {
  try {
    const id = (decodeMsgpack(item) as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? id : '(unknown id)';
  } catch {
    return '(undecodable item)';
  }
}
