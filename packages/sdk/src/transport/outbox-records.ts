import { decodeMsgpack, encodeMsgpack, PROJECT_NAME } from '@weft/protocol';
import { DELIVERY_KINDS, type DeliveryRecord } from './delivery-record.js';

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
