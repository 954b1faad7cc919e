import { decodeMsgpack, encodeMsgpack, PROJECT_NAME, routes } from '@weft/protocol';
import type { ApiClient, SendResult } from './api-client.js';
import { batchBodyPrefix, batchOverheadBytes, encodeBatchBody } from './batch-body.js';
import { DEFAULT_MAX_BATCH_BYTES } from './batcher-options.js';
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
export function outboxRecordPrefix(project: string): Uint8Array {
  const projectBytes = encodeMsgpack(project);
  const prefix = new Uint8Array(2 + projectBytes.byteLength);
  prefix[0] = 0x93;
  prefix[1] = OUTBOX_RECORD_VERSION;
  prefix.set(projectBytes, 2);
  return prefix;
}

/** The version byte of {@link encodeOutboxRecord}'s format. */
export const OUTBOX_RECORD_VERSION = 1;

/** A decoded outbox record: its project and the item's bytes (a view into the record). */
export interface OutboxRecord {
  project: string;
  itemBytes: Uint8Array;
}

/**
 * Reads a record written by {@link encodeOutboxRecord}.
 * @returns The record, or a string saying why it is malformed.
 */
export function decodeOutboxRecord(record: Uint8Array): OutboxRecord | string {
  if (record.byteLength < 4 || record[0] !== 0x93)
    return 'not an outbox call record (expected a msgpack array of 3)';
  if (record[1] !== OUTBOX_RECORD_VERSION) return `unknown outbox record version ${record[1]}`;
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
  return { project, itemBytes: record.subarray(end) };
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
  client: ApiClient,
  onWarning: OutboxWarning = () => {},
  { maxBatchItems = 500, maxBatchBytes = DEFAULT_MAX_BATCH_BYTES }: OutboxSenderOptions = {},
): (records: Uint8Array[]) => Promise<boolean> {
  return async (records) => {
    const runs: { project: string; items: Uint8Array[] }[] = [];
    for (const [position, record] of records.entries()) {
      const decoded = decodeOutboxRecord(record);
      if (typeof decoded === 'string') {
        onWarning(`Skipping a malformed outbox record: ${decoded}`, { position, bytes: record.byteLength });
        continue;
      }
      const last = runs.at(-1);
      if (last?.project === decoded.project) last.items.push(decoded.itemBytes);
      else runs.push({ project: decoded.project, items: [decoded.itemBytes] });
    }
    for (const run of runs) {
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

/**
 * Sends one batch; when the server rejects an item as invalid, drops exactly
 * that item (by the error's `index`, else by splitting the batch in halves)
 * and sends the rest. False when the server cannot take records now.
 */
async function sendIsolating(
  client: ApiClient,
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
    const invalid = statusCode === 400 || statusCode === 422;
    if (!invalid && statusCode !== 413) {
      onWarning(`Outbox replay paused: ${error.message}`, { statusCode });
      return false;
    }
    if (invalid && index !== undefined && index >= 0 && index < batch.length) {
      const [bad] = batch.splice(index, 1);
      report(bad!, error, statusCode, onWarning);
      if (batch.length > 0) work.push(batch);
      continue;
    }
    if (batch.length === 1) {
      report(batch[0]!, error, statusCode, onWarning);
      continue;
    }
    const middle = Math.ceil(batch.length / 2);
    work.push(batch.slice(middle), batch.slice(0, middle));
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
