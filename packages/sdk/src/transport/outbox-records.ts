import { decodeMsgpack, encodeMsgpack, PROJECT_NAME, routes } from '@weft/protocol';
import type { ApiClient, SendResult } from './api-client.js';
import { batchBodyPrefix, batchOverheadBytes, encodeBatchBody } from './batch-body.js';
import { DEFAULT_MAX_BATCH_BYTES } from './batcher-options.js';
import { DELIVERY_KINDS, type DeliveryRecord, sendDeliveryRecord } from './delivery-record.js';
import { rejectionVerdict, splitInHalves } from './delivery-rules.js';
import { RecordRejectedError, RecordTooLargeError } from './transport-errors.js';

/**
 * A call record as the outbox keeps it: a msgpack array `[1, project, item]`,
 * written by concatenation so the item's bytes are stored exactly as the
 * pipeline encoded them:
 *
 * ```
 * 0x93  0x01  <project as msgpack str>  <item bytes: one callBatch item>
 *  │     └ record format version
 *  └ array of 3
 * ```
 *
 * Any msgpack reader decodes it (`weft outbox status` can show it); replay
 * slices the item bytes back out without decoding them.
 */
export function encodeOutboxRecord(project: string, itemBytes: Uint8Array): Uint8Array {
  const prefix = outboxRecordPrefix(project);
  const record = new Uint8Array(prefix.byteLength + itemBytes.byteLength);
  record.set(prefix, 0);
  record.set(itemBytes, prefix.byteLength);
  return record;
}

/**
 * The bytes of an {@link encodeOutboxRecord} record before the item, for one
 * project: a record is `[prefix, itemBytes]`, which the outbox writes as
 * parts without concatenating them first.
 */
export function outboxRecordPrefix(project: string, version: number = OUTBOX_RECORD_VERSION): Uint8Array {
  const projectBytes = encodeMsgpack(project);
  const prefix = new Uint8Array(2 + projectBytes.byteLength);
  prefix[0] = 0x93;
  prefix[1] = version;
  prefix.set(projectBytes, 2);
  return prefix;
}

/** The version byte of {@link encodeOutboxRecord}'s format. */
export const OUTBOX_RECORD_VERSION = 1;

/**
 * The version byte of a delivery record (an object version, a file, a table
 * chunk: see `DeliveryRecord`): `[2, project, { kind, label, body }]`, the
 * same envelope as a call record with the third element a msgpack map.
 */
export const DELIVERY_RECORD_VERSION = 2;

/** A record as its parts `[prefix, item]`, ready for `Outbox.append` (no concatenated copy). */
export function encodeDeliveryRecord(project: string, record: DeliveryRecord): Uint8Array[] {
  return [
    outboxRecordPrefix(project, DELIVERY_RECORD_VERSION),
    encodeMsgpack({ kind: record.kind, label: record.label, body: record.body }),
  ];
}

/** A decoded outbox record: its project and the item's bytes (a view into the record); `delivery` for version 2. */
export interface OutboxRecord {
  project: string;
  itemBytes: Uint8Array;
  /** Set for a version-2 record: what to send instead of a call item. */
  delivery?: DeliveryRecord;
}

/**
 * Reads a record written by {@link encodeOutboxRecord}.
 * @returns The record, or a string saying why it is malformed.
 */
export function decodeOutboxRecord(record: Uint8Array): OutboxRecord | string {
  if (record.byteLength < 4 || record[0] !== 0x93)
    return 'not an outbox call record (expected a msgpack array of 3)';
  const version = record[1];
  if (version !== OUTBOX_RECORD_VERSION && version !== DELIVERY_RECORD_VERSION)
    return `unknown outbox record version ${version}`;
  const tag = record[2]!;
  let start: number;
  let length: number;
  if (tag >= 0xa0 && tag <= 0xbf) {
    start = 3;
    length = tag & 0x1f;
  } else if (tag === 0xd9) {
    start = 4;
    length = record[3]!;
  } else {
    return 'the project field is not a short string';
  }
  const end = start + length;
  if (end >= record.byteLength) return 'the record is truncated';
  const project = new TextDecoder().decode(record.subarray(start, end));
  if (!PROJECT_NAME.test(project)) return `invalid project name ${JSON.stringify(project)}`;
  const itemBytes = record.subarray(end);
  if (version === OUTBOX_RECORD_VERSION) return { project, itemBytes };
  let item: Partial<DeliveryRecord> | undefined;
  try {
    item = decodeMsgpack(itemBytes) as Partial<DeliveryRecord> | undefined;
  } catch {
    return 'the delivery record does not decode';
  }
  if (typeof item?.kind !== 'string' || !DELIVERY_KINDS.has(item.kind))
    return 'the delivery record has no known kind';
  if (item.kind === 'file' && !(item.body instanceof Uint8Array)) return 'the file record holds no bytes';
  return {
    project,
    itemBytes,
    delivery: { kind: item.kind, body: item.body, label: String(item.label ?? item.kind) },
  };
}

/** Bounds of the batches replay sends. */
export interface OutboxSenderOptions {
  /** @default 500 */
  maxBatchItems?: number;
  /** @default 1 MiB ({@link DEFAULT_MAX_BATCH_BYTES}) */
  maxBatchBytes?: number;
}

/** Receives each problem replay hit (a malformed or rejected record); it is reported, then skipped. */
export type OutboxWarning = (message: string, details: Record<string, unknown>) => void;

/**
 * The send function for `Outbox.replay`: sends outbox records, grouped by
 * project and in their order, in bounded batches.
 *
 * Resolves `true` only when every record is handled: acknowledged by the
 * server, or rejected by it as invalid (reported through `onWarning`, then
 * dropped, since sending it again can never succeed), or malformed (reported,
 * dropped). Resolves `false` as soon as the server is unreachable, failing
 * (5xx, 429) or refuses the credentials, so the segment stays for a later
 * replay; records already acknowledged are harmlessly sent again then, because
 * ingest is an idempotent upsert by call id.
 */
export function createOutboxSender(
  client: Pick<ApiClient, 'post' | 'postBytes'>,
  onWarning: OutboxWarning = () => {},
  { maxBatchItems = 500, maxBatchBytes = DEFAULT_MAX_BATCH_BYTES }: OutboxSenderOptions = {},
): (records: Uint8Array[]) => Promise<boolean> {
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
      const prefix = batchBodyPrefix(run.project);
      const budget = maxBatchBytes - batchOverheadBytes(prefix);
      let batch: Uint8Array[] = [];
      let bytes = 0;
      for (const item of run.items) {
        if (batch.length > 0 && (batch.length >= maxBatchItems || bytes + item.byteLength > budget)) {
          if (!(await sendIsolating(client, prefix, batch, onWarning))) return false;
          batch = [];
          bytes = 0;
        }
        batch.push(item);
        bytes += item.byteLength;
      }
      if (batch.length > 0 && !(await sendIsolating(client, prefix, batch, onWarning))) return false;
    }
    return true;
  };
}

/** One delivery record; false when the server cannot take it now. A record it rejects as invalid is reported and dropped. */
async function sendDelivery(
  client: Pick<ApiClient, 'post' | 'postBytes'>,
  project: string,
  record: DeliveryRecord,
  onWarning: OutboxWarning,
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
  client: Pick<ApiClient, 'post'>,
  prefix: Uint8Array,
  items: Uint8Array[],
  onWarning: OutboxWarning,
): Promise<boolean> {
  const work: Uint8Array[][] = [items];
  while (work.length > 0) {
    const batch = work.pop()!;
    const result: SendResult = await client.post(routes.callBatch(), encodeBatchBody(prefix, batch));
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
  onWarning: OutboxWarning,
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
